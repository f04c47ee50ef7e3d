# Bit tricks of the native engines on 64-bit masks (a bit per card or tile). Inline C only (cimported by the
# .pyx engines; nothing of it exists at run time).
from libc.stdint cimport uint64_t


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define MUGGINS_CTZ(x) __builtin_ctzll(x)
    #if defined(__POPCNT__)
    #define MUGGINS_POPCOUNT(x) __builtin_popcountll(x)
    #else  /* without the instruction the builtin calls libgcc: count the bits in place */
    static inline int MUGGINS_POPCOUNT(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    #else
    static int MUGGINS_CTZ(unsigned long long x) { int i = 0; while (!((x >> i) & 1)) i++; return i; }
    static int MUGGINS_POPCOUNT(unsigned long long x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
    #endif
    """
    int MUGGINS_CTZ(unsigned long long x) noexcept nogil
    int MUGGINS_POPCOUNT(unsigned long long x) noexcept nogil


cdef inline int popcount(uint64_t m) noexcept nogil:
    return MUGGINS_POPCOUNT(m)


cdef inline int lowbit(uint64_t m) noexcept nogil:
    """The lowest set bit of a non-empty mask."""
    return MUGGINS_CTZ(m)
