# Compiled builds only: GameState as an extension type with the fields every game keeps, so that a
# game's state may be an extension type as well (the .py is the reference; _BASE_FIELDS lists these).
cdef class GameState:
    cdef public object rules
    cdef public long num_players
    cdef public object chance
    cdef public list history
    cdef public list log
    cdef public bint _over
    cdef public object _winners
    cdef public list _scores
    cdef public list _side
    cdef public bint _manual
    cdef public object _window
    cdef public long _ver

    # called on every move: C calls in a compiled game (a game in Python still overrides them)
    cpdef list _regular(self, seat)
    cpdef _apply_move(self, seat, action)
    cpdef _score_step(self, seat, points, claim, str reason, str what=*, bint muggable=*, late_limit=*,
                      bint extend=*)
