# The (seat, action id) history a native engine keeps for the state that follows its game through the
# protocol. Inline C only (cimported by the .pyx engines; nothing of it exists at run time).
from libc.stdlib cimport free, malloc, realloc


cdef struct IdLog:
    int* buf        # seat, id, seat, id, ...
    long n          # ints used
    long cap


cdef inline void idlog_init(IdLog* h) noexcept nogil:
    h.buf = NULL
    h.n = 0
    h.cap = 0


cdef inline void idlog_free(IdLog* h) noexcept nogil:
    free(h.buf)
    idlog_init(h)


cdef inline int idlog_push(IdLog* h, int seat, int i) except -1:
    """Append ``(seat, i)``."""
    cdef int* buf
    cdef long cap
    if h.n + 2 > h.cap:
        cap = 256 if h.cap == 0 else 2 * h.cap
        buf = <int*>realloc(h.buf, cap * sizeof(int))
        if buf == NULL:
            raise MemoryError("no memory for the history")
        h.buf = buf
        h.cap = cap
    h.buf[h.n] = seat
    h.buf[h.n + 1] = i
    h.n += 2
    return 0


cdef inline int idlog_copy(IdLog* dst, const IdLog* src) except -1:
    """Make ``dst`` (empty) a copy of ``src``."""
    cdef long k
    idlog_init(dst)
    if src.n:
        dst.buf = <int*>malloc(src.n * sizeof(int))
        if dst.buf == NULL:
            raise MemoryError("no memory for the history")
        for k in range(src.n):
            dst.buf[k] = src.buf[k]
        dst.n = src.n
        dst.cap = src.n
    return 0


cdef inline list idlog_list(const IdLog* h, long start):
    """``(seat, id)`` of the moves from the ``start``-th on."""
    return [(h.buf[k], h.buf[k + 1]) for k in range(2 * start, h.n, 2)]
