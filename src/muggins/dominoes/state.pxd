# Compiled builds only: DominoState as an extension type with typed fields (the .py is the reference).
# Every field here and in GameState's is also listed in state.py's _FIELDS, which clone() and _become() copy.
from muggins.core.protocol cimport GameState

cdef class DominoState(GameState):
    cdef public list hands
    cdef public list boneyard
    cdef public long turn
    cdef public str phase
    cdef public long count
    cdef public long hand_no
    cdef public long _nsides
    cdef public bint _teams
    cdef public list _entered
    cdef public tuple _table
    cdef public bint _sniff_ends
    cdef public bint _fill_first
    cdef public bint _extra
    cdef public bint _both_out
    cdef public bint _voluntary
    cdef public long _draw_limit
    cdef public bint _spins
    cdef public bint _sniff_option
    cdef public list _all_tiles
    cdef public long _each
    cdef public long _tiebreak_left
    cdef public long _leader
    cdef public long _last_out
    cdef public object _legal_cache
    cdef public object _forced_lead
    cdef public long _draws
    cdef public long _dead_passes
    cdef public object _knock
    cdef public list _out
    cdef public list _ltile
    cdef public list _linfo
    cdef public list _lmask
    cdef public dict _node_of
    cdef public list _posall
    cdef public list _posflat
    cdef public long _spinner
    cdef public long _hand_log_start
    cdef public bint _down

    cpdef list _regular(self, seat)
    cpdef _apply_move(self, seat, action)
