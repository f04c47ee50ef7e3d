# Python's own random stream in C: the Mersenne Twister of CPython's ``random.Random`` (the same state, seeding,
# ``random()``, ``getrandbits``, ``_randbelow``, ``shuffle`` and ``sample`` of a small population), so that a
# native engine draws the very numbers a ``random.Random`` in the same state would, with no Python call.
# Inline C only (cimported by the .pyx engines; nothing of it exists at run time). A native engine keeps the
# outcomes it draws as int records (``DrawLog``) that its Python face turns into the chance's outcome dicts.
from cpython.long cimport PyLong_AsLongLongAndOverflow
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy

cdef extern from *:
    """
    static uint32_t muggins_mt_base[624];  /* init_genrand(19650218), where every int seeding starts */
    static int muggins_mt_base_ready = 0;
    """
    uint32_t mt_base "muggins_mt_base"[624]
    int mt_base_ready "muggins_mt_base_ready"

cdef enum:
    MT_N = 624
    MT_M = 397
    DRAW_WIDTH = 56     # ints per drawn outcome: kind, two fields, up to 53 cards
    DRAW_CUT_FOR_DEAL = 0   # seat mask, number of cards, the cards
    DRAW_DEAL = 1           # dealer, 52, the shuffled pack
    DRAW_CUT = 2            # position, card


cdef struct MT:
    uint32_t state[MT_N]
    int index


cdef struct DrawLog:
    int* buf
    long n          # ints used
    long cap


cdef inline void mt_init_genrand(MT* m, uint32_t s) noexcept nogil:
    cdef int i
    m.state[0] = s
    for i in range(1, MT_N):
        m.state[i] = <uint32_t>(<uint32_t>1812433253 * (m.state[i - 1] ^ (m.state[i - 1] >> 30)) + <uint32_t>i)
    m.index = MT_N


cdef inline void mt_init_by_array(MT* m, const uint32_t* key, size_t n) noexcept nogil:
    """CPython's ``init_by_array`` (what ``random.seed(int)`` calls with the int's 32-bit words)."""
    cdef size_t i = 1, j = 0, k
    cdef uint32_t* s = m.state
    global mt_base_ready
    if mt_base_ready:  # the same start for every seed: made once
        memcpy(s, mt_base, MT_N * sizeof(uint32_t))
        m.index = MT_N
    else:
        mt_init_genrand(m, <uint32_t>19650218)
        memcpy(mt_base, s, MT_N * sizeof(uint32_t))
        mt_base_ready = 1
    k = MT_N if MT_N > n else n
    while k:
        s[i] = <uint32_t>((s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * <uint32_t>1664525)) + key[j] + <uint32_t>j)
        i += 1
        j += 1
        if i >= MT_N:
            s[0] = s[MT_N - 1]
            i = 1
        if j >= n:
            j = 0
        k -= 1
    k = MT_N - 1
    while k:
        s[i] = <uint32_t>((s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * <uint32_t>1566083941)) - <uint32_t>i)
        i += 1
        if i >= MT_N:
            s[0] = s[MT_N - 1]
            i = 1
        k -= 1
    s[0] = <uint32_t>0x80000000


cdef inline int mt_seed(MT* m, object seed) except -1:
    """``random.Random(seed)`` for an int ``seed`` (its absolute value's 32-bit words, low first)."""
    cdef uint32_t key[64]
    cdef size_t n = 0
    cdef int overflow = 0
    cdef long long small
    cdef unsigned long long u
    if type(seed) is int:  # a seed of a C long long: its words in C
        small = PyLong_AsLongLongAndOverflow(seed, &overflow)
        if not overflow:
            u = <unsigned long long>small if small >= 0 else -<unsigned long long>small
            key[0] = <uint32_t>(u & 0xFFFFFFFF)
            key[1] = <uint32_t>(u >> 32)
            mt_init_by_array(m, key, 2 if key[1] else 1)
            return 0
    v = abs(seed)
    if v >> (32 * 64):
        raise ValueError("seeds of more than 2048 bits are drawn in Python")
    while True:
        key[n] = <uint32_t>(v & 0xFFFFFFFF)
        n += 1
        v >>= 32
        if not v:
            break
    mt_init_by_array(m, key, n)
    return 0


cdef inline void mt_twist(MT* m) noexcept nogil:
    """The next 624 words of the state (CPython's ``genrand_uint32`` when it runs out), with no branch on the
    words: each loop runs over whole vectors."""
    cdef uint32_t y
    cdef int kk
    cdef uint32_t* s = m.state
    for kk in range(MT_N - MT_M):
        y = (s[kk] & <uint32_t>0x80000000) | (s[kk + 1] & <uint32_t>0x7fffffff)
        s[kk] = s[kk + MT_M] ^ (y >> 1) ^ ((<uint32_t>0 - (y & 1)) & <uint32_t>0x9908b0df)
    for kk in range(MT_N - MT_M, MT_N - 1):
        y = (s[kk] & <uint32_t>0x80000000) | (s[kk + 1] & <uint32_t>0x7fffffff)
        s[kk] = s[kk + (MT_M - MT_N)] ^ (y >> 1) ^ ((<uint32_t>0 - (y & 1)) & <uint32_t>0x9908b0df)
    y = (s[MT_N - 1] & <uint32_t>0x80000000) | (s[0] & <uint32_t>0x7fffffff)
    s[MT_N - 1] = s[MT_M - 1] ^ (y >> 1) ^ ((<uint32_t>0 - (y & 1)) & <uint32_t>0x9908b0df)
    m.index = 0


cdef inline uint32_t mt_temper(uint32_t y) noexcept nogil:
    y ^= y >> 11
    y ^= (y << 7) & <uint32_t>0x9d2c5680
    y ^= (y << 15) & <uint32_t>0xefc60000
    y ^= y >> 18
    return y


cdef inline uint32_t mt_next(MT* m) noexcept nogil:
    """CPython's ``genrand_uint32``."""
    if m.index >= MT_N:
        mt_twist(m)
    m.index += 1
    return mt_temper(m.state[m.index - 1])


cdef inline void mt_words(MT* m, uint32_t* out, int n) noexcept nogil:
    """The next ``n`` (at most 624) words of ``mt_next``, tempered together where the state holds them."""
    cdef int i, k
    cdef const uint32_t* s
    while n > 0:
        if m.index >= MT_N:
            mt_twist(m)
        k = MT_N - m.index if MT_N - m.index < n else n
        s = m.state + m.index
        for i in range(k):
            out[i] = mt_temper(s[i])
        m.index += k
        out += k
        n -= k


cdef inline double mt_random(MT* m) noexcept nogil:
    """``random.random()``."""
    cdef uint32_t a = mt_next(m) >> 5
    cdef uint32_t b = mt_next(m) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


cdef inline int mt_below(MT* m, int n) noexcept nogil:
    """``random._randbelow(n)`` for 0 < n < 2**31: ``getrandbits(n.bit_length())`` until it is below n."""
    cdef int k = 0
    cdef uint32_t r
    while (n >> k) != 0:
        k += 1
    r = mt_next(m) >> (32 - k)
    while r >= <uint32_t>n:
        r = mt_next(m) >> (32 - k)
    return <int>r


cdef inline int mt_load(MT* m, object state) except -1:
    """Take the state of a ``random.Random`` (``getstate()``)."""
    cdef int i
    version, internal, _ = state
    if version != 3 or len(internal) != MT_N + 1:
        raise ValueError("not a state of random.Random")
    for i in range(MT_N):
        m.state[i] = <uint32_t>internal[i]
    m.index = internal[MT_N]
    return 0


cdef inline tuple mt_state(MT* m):
    """The state for ``random.Random.setstate``."""
    return (3, tuple([m.state[i] for i in range(MT_N)] + [m.index]), None)


cdef inline int* draw_push(DrawLog* d, int kind, int a, int b) except NULL:
    """A new record (kind, a, b, cards...): the pointer to its cards."""
    cdef int* buf
    cdef long cap
    if d.n + DRAW_WIDTH > d.cap:
        cap = 16 * DRAW_WIDTH if d.cap == 0 else 2 * d.cap
        buf = <int*>realloc(d.buf, cap * sizeof(int))
        if buf == NULL:
            raise MemoryError("no memory for the drawn outcomes")
        d.buf = buf
        d.cap = cap
    buf = d.buf + d.n
    d.n += DRAW_WIDTH
    buf[0] = kind
    buf[1] = a
    buf[2] = b
    return buf + 3


cdef inline int draw_copy(DrawLog* dst, const DrawLog* src) except -1:
    """Make ``dst`` (empty) a copy of ``src``."""
    cdef long k
    dst.buf = NULL
    dst.n = 0
    dst.cap = 0
    if src.n:
        dst.buf = <int*>realloc(NULL, src.n * sizeof(int))
        if dst.buf == NULL:
            raise MemoryError("no memory for the drawn outcomes")
        for k in range(src.n):
            dst.buf[k] = src.buf[k]
        dst.n = dst.cap = src.n
    return 0


cdef inline list draw_take(DrawLog* d):
    """The records as (kind, a, b, cards) tuples, and the log emptied."""
    cdef long k
    cdef int* r
    out = []
    for k in range(0, d.n, DRAW_WIDTH):
        r = d.buf + k
        out.append((r[0], r[1], r[2], [r[3 + i] for i in range(r[2])]))
    d.n = 0
    return out


cdef inline int mt_cut_for_deal(MT* m, DrawLog* d, int n, bint lowest) except -1:
    """``dealing.cut_for_deal``: each seat draws a card (``random.sample`` of the pack), the lowest (or highest)
    rank deals, tied seats draw again. Returns the dealer; each draw is a DRAW_CUT_FOR_DEAL record."""
    cdef int seats = (1 << n) - 1, k, i, j, s, best, tied, r, got
    cdef uint64_t taken
    cdef int* cards
    while True:
        k = 0
        for s in range(n):
            k += (seats >> s) & 1
        cards = draw_push(d, DRAW_CUT_FOR_DEAL, seats, k)
        taken = 0
        for i in range(k):  # random.sample of a 52-card population: the set method
            j = mt_below(m, 52)
            while (taken >> j) & 1:
                j = mt_below(m, 52)
            taken |= <uint64_t>1 << j
            cards[i] = j
        best = -1
        for i in range(k):
            r = cards[i] >> 2
            if best < 0 or (r < best if lowest else r > best):
                best = r
        tied = 0
        got = 0
        i = 0
        for s in range(n):
            if (seats >> s) & 1:
                if (cards[i] >> 2) == best:
                    tied |= 1 << s
                    got = s
                i += 1
        if tied == (1 << got):
            return got
        seats = tied


cdef inline void mt_shuffle(MT* m, int* deck, int n) noexcept nogil:
    """``random.shuffle`` of ``deck[:n]``."""
    cdef int i, j, t
    i = n - 1
    while i > 0:
        j = mt_below(m, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
        i -= 1


cdef inline void mt_sort_shuffle(MT* m, int* deck) noexcept nogil:
    """``sorted(range(52), key=lambda _: rng.random())``: 52 keys in order, a stable sort by them. A key here is
    the 53-bit integer ``random()`` scales to its double (the same order), shifted over the card's index, so no
    two are equal and their order is the stable one: a counting pass by the top bits places them nearly in
    order, an insertion sort finishes."""
    cdef uint64_t key[52]
    cdef uint64_t out[52]
    cdef uint32_t words[104]
    cdef int start[65]
    cdef uint64_t k, a, b
    cdef int i, j
    for i in range(65):
        start[i] = 0
    mt_words(m, words, 104)
    for i in range(52):
        a = words[2 * i] >> 5  # random(): (a * 2**26 + b) / 2**53
        b = words[2 * i + 1] >> 6
        k = (((a << 26) | b) << 6) | <uint64_t>i
        key[i] = k
        start[(k >> 53) + 1] += 1  # (59 bits: the top six pick one of 64 buckets)
    for i in range(1, 65):
        start[i] += start[i - 1]
    for i in range(52):
        j = <int>(key[i] >> 53)
        out[start[j]] = key[i]
        start[j] += 1
    for i in range(1, 52):
        k = out[i]
        j = i
        while j > 0 and out[j - 1] > k:
            out[j] = out[j - 1]
            j -= 1
        out[j] = k
    for i in range(52):
        deck[i] = <int>(out[i] & 63)
