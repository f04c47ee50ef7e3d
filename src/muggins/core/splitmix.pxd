# The native engines' random numbers: splitmix64, small, fast and the same stream on every machine.
# Inline C only (cimported by the .pyx engines; nothing of it exists at run time).
from libc.stdint cimport uint64_t


cdef inline uint64_t splitmix_next(uint64_t* state) noexcept nogil:
    """The next 64 random bits of the generator whose state is ``state[0]``."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline double splitmix_unit(uint64_t* state) noexcept nogil:
    """A uniform double in [0, 1) from the next 53 random bits."""
    return <double>(splitmix_next(state) >> 11) * (1.0 / 9007199254740992.0)
