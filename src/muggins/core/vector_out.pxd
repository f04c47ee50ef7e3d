# What the core of every native batched environment (muggins.rl.vector.NativeVectorEnv) writes and keeps per
# game: the NumPy arrays the environment returns, bound once by address, and the bookkeeping arrays the core
# makes. Inline code only (cimported by the vector_native modules; nothing of it exists at run time).
from libc.stdint cimport int8_t, uint8_t, uint64_t


cdef struct Out:
    # the arrays written, one row per game
    float* obs
    int8_t* mask
    double* reward
    uint8_t* term
    uint8_t* illegal_out
    int* seat_out
    float* rewards_all  # every seat learning: each seat's reward (else NULL)
    float* final_obs    # same-step reset: the observation that ended the episode (else NULL)
    int8_t* final_mask
    # per game
    int* declined       # the seats (a bit each) that let the open muggins window go
    int* seen           # per game and seat (4 a game): the side's score at the seat's last observation
    uint8_t* pending    # it ended on the last step and is dealt anew on this one (next-step reset)
    uint64_t* streams   # the PRNG its deals are seeded from


cdef inline size_t _address(dict arrays, str name, object dtype) except 0:
    """The address of the C-contiguous array ``arrays[name]`` of ``dtype`` (ValueError otherwise)."""
    arr = arrays[name]
    if arr.dtype != dtype or not arr.flags.c_contiguous or arr.size == 0:
        raise ValueError(f"the array {name!r} must be a non-empty C-contiguous array of {dtype}")
    return <size_t>arr.ctypes.data


cdef inline tuple bind_out(Out* o, dict arrays, int num_envs, bint all_seats, bint same_step):
    """Point ``o`` at the environment's ``arrays`` ("observation", "action_mask", "reward", "terminated",
    "illegal", "seat"; "rewards" when every seat learns; "final_observation", "final_action_mask" with
    same-step reset) and at bookkeeping arrays made here for ``num_envs`` games. Returns what must be kept
    alive as long as ``o`` is used."""
    import numpy as np

    own = {"declined": np.zeros(num_envs, np.int32), "seen": np.zeros(4 * num_envs, np.int32),
           "pending": np.zeros(num_envs, np.uint8), "streams": np.zeros(num_envs, np.uint64)}
    o.obs = <float*>_address(arrays, "observation", np.float32)
    o.mask = <int8_t*>_address(arrays, "action_mask", np.int8)
    o.reward = <double*>_address(arrays, "reward", np.float64)
    o.term = <uint8_t*>_address(arrays, "terminated", np.bool_)
    o.illegal_out = <uint8_t*>_address(arrays, "illegal", np.bool_)
    o.seat_out = <int*>_address(arrays, "seat", np.int32)
    o.rewards_all = <float*>_address(arrays, "rewards", np.float32) if all_seats else NULL
    o.final_obs = <float*>_address(arrays, "final_observation", np.float32) if same_step else NULL
    o.final_mask = <int8_t*>_address(arrays, "final_action_mask", np.int8) if same_step else NULL
    o.declined = <int*>_address(own, "declined", np.int32)
    o.seen = <int*>_address(own, "seen", np.int32)
    o.pending = <uint8_t*>_address(own, "pending", np.uint8)
    o.streams = <uint64_t*>_address(own, "streams", np.uint64)
    for name in ("observation", "action_mask", "reward", "terminated", "illegal", "seat"):
        if len(arrays[name]) != num_envs:
            raise ValueError(f"the array {name!r} must have a row per game ({num_envs})")
    return (arrays, own)


cdef inline bint next_step_deal(Out* o, Py_ssize_t i, int n) noexcept nogil:
    """Whether game ``i`` ended on the last step and is dealt anew on this one (next-step reset: its action is
    ignored); if so, its reward and end are cleared here (nobody scored) and the caller deals it."""
    cdef int s
    if not o.pending[i]:
        return 0
    o.reward[i] = 0.0
    o.term[i] = 0
    o.illegal_out[i] = 0
    if o.rewards_all:
        for s in range(n):
            o.rewards_all[i * n + s] = 0.0
    return 1


cdef inline void settle(Out* o, Py_ssize_t i, int n, int learner, int actor, bint ok, bint over, bint win,
                        double illegal, const int* before, const int* after, const double* result) noexcept nogil:
    """Write game ``i``'s step: ended (over, or ``ok`` false: an illegal action), illegal, and the rewards:
    the learner's (``learner`` >= 0: ``illegal`` for an illegal action, else ``result[learner]`` at the end
    with ``win``, else its score's change since its last observation) or every seat's (``learner`` -1:
    ``illegal`` for the actor of an illegal action, ``result`` at the end with ``win``, else each score's
    change over the step; the returned reward the actor's). ``before``, ``after``: each seat's score;
    ``result``: each seat's +1 won, -1 lost, 0 neither."""
    cdef int s
    cdef float* all_r
    o.term[i] = 1 if (over or not ok) else 0
    o.illegal_out[i] = 0 if ok else 1
    if learner >= 0:
        if not ok:
            o.reward[i] = illegal
        elif win:
            o.reward[i] = result[learner] if over else 0.0
        else:
            o.reward[i] = after[learner] - o.seen[4 * i + learner]
        o.seen[4 * i + learner] = after[learner]
        return
    all_r = o.rewards_all + i * n
    for s in range(n):
        if not ok:
            all_r[s] = <float>illegal if s == actor else 0.0
        elif win:
            all_r[s] = <float>result[s] if over else 0.0
        else:
            all_r[s] = after[s] - before[s]
    o.reward[i] = all_r[actor] if actor >= 0 else 0.0
