# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Many card Muggins games stepped in C for :class:`muggins.cards.muggins31.vector.CardMugginsVectorEnv`
(``muggins.rl.vector_env("card-muggins", ...)``).

Every game is a :c:type:`Game` of the native engine (:mod:`muggins.cards.muggins31.native`, whose
``native.pxd`` declares it). A step applies each game's action given as a compact pair
(:mod:`muggins.rl.compact`: a move - a card, go, the muggins call, the late claim or "let it go" - then the
amount it announces), lets the opponents (random or greedy, as the native engine's policies of those names, or
the search bot at a small budget: the native search, :func:`muggins.cards.muggins31.native.search`, its worlds
drawn from what its seat has seen, read in C from the game and its event log; all with perfect attention: true
claims, every missed point called) act inside C, deals a new game where one
ended, and writes each observation (:class:`muggins.cards.muggins31.observation.CardMugginsEncoder`'s vector,
computed from the C data) and mask of legal moves into NumPy arrays made once. The loop over games runs
without the GIL, so chunks of games can be stepped on several threads at once.

The turns are those of the PettingZoo environment (:mod:`muggins.rl.pettingzoo_env`): an open muggins window
asks each seat that may call or claim late, from the scorer on, before the seat the game waits for; a seat so
asked may "let it go", the last move of the head.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memmove, memset

import numpy as np

from muggins.core.bits cimport lowbit, popcount
from muggins.core.splitmix cimport splitmix_next
from muggins.core.vector_out cimport Out, bind_out, next_step_deal, settle
from muggins.cards.muggins31.native cimport (CLAIM_NONE, EV_ROUND_START, EV_WIDTH, GO, POLICY_GREEDY,
                                             POLICY_RANDOM, EvLog, Game, NativeCardMuggins, apply_move,
                                             call_muggins, choose, late_claim, new_game, search_move, true_points)

cdef enum:
    LEARNER = -1
    P_SEARCH = 8          # the search bot (the native engine's policies are 0 and 1)
    SEARCH_HORIZON = 120  # moves of a search's iteration at most (the search bot's horizon)

#: the opponents played in C, by bot name
POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY, "search": P_SEARCH}
# the search bot's constants (its defaults): UCB1's exploration, the rollouts' greedy share
cdef double SEARCH_EXPLORATION = 0.7
cdef double SEARCH_ROLLOUT_GREEDY = 0.8


cdef struct Enc:
    # where each field of the observation starts (CardMugginsEncoder's layout) and its scales
    int size, n, hand, pile, earlier, total, passed, last, dealer, sizes, stock
    double target, cap, most_in_hand, stock0


cdef inline uint64_t fitting(Game* g, int seat) noexcept nogil:
    """The cards of ``seat`` that keep the total at most the cap (ranks 1..v sit at 0..4v - 1, tens from 36)."""
    cdef int room = g.cap - g.total
    if room >= 10:
        return g.held[seat]
    if room <= 0:
        return 0
    return g.held[seat] & ((<uint64_t>1 << (4 * room)) - 1)


cdef inline int to_act_mask(Game* g) noexcept nogil:
    """The seats that may act (a bit each): the one waited for, a window's callers and its late claimer."""
    cdef int m
    if g.over:
        return 0
    m = 1 << g.turn
    if g.w_open:
        m |= ((1 << g.n) - 1) & ~(1 << g.w_scorer)
        if g.w_may:
            m |= 1 << g.w_scorer
    return m


cdef inline void set_cards(float* out, uint64_t m) noexcept nogil:
    while m:
        out[lowbit(m)] = 1.0
        m &= m - 1


cdef void encode(Game* g, Enc* e, int seat, float* out) noexcept nogil:
    """``CardMugginsEncoder.encode(state, seat)`` from the C data (equal, number for number)."""
    cdef int n = e.n, i, s, acts
    cdef uint64_t pile = 0
    memset(out, 0, e.size * sizeof(float))
    out[seat] = 1.0
    acts = to_act_mask(g)
    for s in range(n):
        if acts >> s & 1:
            out[n + (s - seat + n) % n] = 1.0
    for i in range(n):
        out[2 * n + i] = <float>(g.scores[(seat + i) % n] / e.target)
    if g.w_open:
        out[3 * n] = 1.0
        out[3 * n + 1] = 0.0 if g.w_claimed == CLAIM_NONE else 1.0
        out[3 * n + 2 + (g.w_scorer - seat + n) % n] = 1.0
    out[4 * n + 2] = 1.0 if g.over else 0.0
    set_cards(out + e.hand, g.held[seat])
    for i in range(g.npile):
        pile |= <uint64_t>1 << g.pile[i]
    set_cards(out + e.pile, pile)
    set_cards(out + e.earlier, g.closed)
    out[e.total] = <float>min(1.0, g.total / e.cap)
    for s in range(n):
        if g.passed >> s & 1:
            out[e.passed + (s - seat + n) % n] = 1.0
    if g.last_player >= 0:
        out[e.last + (g.last_player - seat + n) % n] = 1.0
    out[e.dealer + (g.dealer - seat + n) % n] = 1.0
    for i in range(n):
        out[e.sizes + i] = <float>min(1.0, popcount(g.held[(seat + i) % n]) / e.most_in_hand)
    out[e.stock] = <float>min(1.0, (g.nstock - g.sp) / e.stock0)


cdef Enc make_enc(object rules, int n) except *:
    """The layout of ``CardMugginsEncoder(rules, n)`` for :func:`encode`."""
    from muggins.cards.muggins31.observation import CardMugginsEncoder

    enc = CardMugginsEncoder(rules, n)
    cdef Enc e
    e.size = enc.size
    e.n = n
    e.hand = enc.s_hand
    e.pile = enc.s_pile
    e.earlier = enc.s_earlier
    e.total = enc.s_total
    e.passed = enc.s_passed
    e.last = enc.s_last
    e.dealer = enc.s_dealer
    e.sizes = enc.s_sizes
    e.stock = enc.s_stock
    e.target = enc.target
    e.cap = enc.cap
    e.most_in_hand = enc.most_in_hand
    e.stock0 = enc.stock0
    return e


def encode_native(game: NativeCardMuggins, seat: int) -> np.ndarray:
    """The observation of ``seat`` in the native ``game``, computed in C: equal to
    ``CardMugginsEncoder(rules, n).encode(state, seat)`` of the same position."""
    cdef Game* g = &game.g
    if not 0 <= seat < g.n:
        raise ValueError(f"there is no seat {seat!r}; seats are 0 to {g.n - 1}")
    cdef Enc e = make_enc(game.rules, g.n)
    out = np.zeros(e.size, dtype=np.float32)
    cdef float[::1] o = out
    encode(g, &e, seat, &o[0])
    return out


cdef inline int optional_seats(Game* g, int declined) noexcept nogil:
    """The seats asked about the open window before the game goes on (``MugginsAECEnv.optional_seats``)."""
    return to_act_mask(g) & ~(1 << g.turn) & ~declined


cdef int next_actor(Game* g, int declined) noexcept nogil:
    """The seat to act next (``MugginsAECEnv._next_seat``); -1 once the game is over."""
    cdef int opt, k
    if g.over:
        return -1
    opt = optional_seats(g, declined)
    if opt:
        for k in range(g.n):  # from the scorer on
            if opt >> ((g.w_scorer + k) % g.n) & 1:
                return (g.w_scorer + k) % g.n
    return g.turn


cdef void move(Game* g, int seat, int a, int claim) noexcept nogil:
    """Seat ``seat``'s card ``a`` (or GO) announcing ``claim`` (CLAIM_NONE: nothing)."""
    g.claim = claim
    apply_move(g, seat, a)
    g.claim = CLAIM_NONE


cdef struct Core:
    Enc e
    Game* games
    EvLog* logs         # each game's event log, kept for a search opponent (else NULL)
    long search_iterations  # the search opponent's iterations a move
    double scale        # and the points difference its squashed reward turns on
    int n
    int policy[4]       # per seat: LEARNER, POLICY_RANDOM, POLICY_GREEDY or P_SEARCH
    int learner         # the learning seat; -1: every seat learns
    int moves, amounts, mug, claim, letgo
    int win, same_step
    double illegal
    Out o               # the arrays written, and each game's bookkeeping (muggins.core.vector_out)


cdef void trim_log(EvLog* L) noexcept nogil:
    """Forget the events before the current round's start (the search reads that round alone)."""
    cdef long i, start = 0
    for i in range(L.n // EV_WIDTH - 1, -1, -1):
        if L.buf[i * EV_WIDTH] == EV_ROUND_START:
            start = i * EV_WIDTH
            break
    if start > 0:
        memmove(L.buf, L.buf + start, (L.n - start) * sizeof(int))
        L.n -= start


cdef int search_choice(Core* c, Game* g, int seat) noexcept nogil:
    """The search bot's move for ``seat`` (to play); greedy's when the move is forced or the search cannot
    run."""
    cdef int a = -1
    if popcount(fitting(g, seat)) > 1 and g.log != NULL:
        trim_log(g.log)
        a = search_move(g, seat, c.search_iterations, SEARCH_EXPLORATION, SEARCH_HORIZON, SEARCH_ROLLOUT_GREEDY,
                        c.scale)
    return a if a >= 0 else choose(g, seat, POLICY_GREEDY, 1.0)


cdef void bot_act(Core* c, Game* g, int* declined, int seat, int policy) noexcept nogil:
    """One action of a bot with perfect attention: call a window with missed points, claim late what it may,
    let any other window go, else move by ``policy`` claiming the move's true points."""
    cdef int a, claim = CLAIM_NONE
    if g.w_open and g.w_missed > 0 and seat != g.w_scorer:
        call_muggins(g, seat, g.w_missed)
        declined[0] = 0
        return
    if g.w_open and seat == g.w_scorer and g.w_may and min(g.w_missed, g.w_late) > 0:
        late_claim(g, seat, min(g.w_missed, g.w_late))
        declined[0] = 0
        return
    if seat != g.turn:
        declined[0] |= 1 << seat
        return
    a = search_choice(c, g, seat) if policy == P_SEARCH else choose(g, seat, policy, 1.0)
    if g.manual and a != GO:
        claim = true_points(g, seat, a)
        if claim == 0:
            claim = CLAIM_NONE
    move(g, seat, a, claim)
    declined[0] = 0


cdef void write_mask(Core* c, Game* g, int declined, int seat, int8_t* m) noexcept nogil:
    cdef uint64_t fit
    memset(m, 0, c.moves)
    if g.over or seat < 0:
        return
    if seat == g.turn:
        fit = fitting(g, seat)
        if not fit:
            m[GO] = 1
        while fit:
            m[lowbit(fit)] = 1
            fit &= fit - 1
    if g.w_open:
        if seat != g.w_scorer:
            m[c.mug] = 1
        elif g.w_may:
            m[c.claim] = 1
        if optional_seats(g, declined) >> seat & 1:
            m[c.letgo] = 1


cdef int apply_choice(Core* c, Game* g, int* declined, int seat, int64_t mv, int64_t amount) noexcept nogil:
    """Apply the compact action (``mv``, ``amount``) for ``seat``; 0 (and nothing changed) if illegal."""
    if g.over or mv < 0 or mv >= c.moves or amount < 0 or amount >= c.amounts:
        return 0
    if mv <= GO:  # a card, or go
        if seat != g.turn:
            return 0
        if mv == GO:
            if fitting(g, seat):
                return 0
            move(g, seat, GO, CLAIM_NONE)
        else:
            if not fitting(g, seat) >> mv & 1:
                return 0
            move(g, seat, <int>mv, <int>amount - 1 if g.manual else CLAIM_NONE)
        declined[0] = 0
        return 1
    if mv == c.mug:
        if not g.w_open or seat == g.w_scorer:
            return 0
        call_muggins(g, seat, <int>amount - 1)
        declined[0] = 0
        return 1
    if mv == c.claim:
        if not g.w_open or seat != g.w_scorer or not g.w_may or amount < 1:
            return 0
        late_claim(g, seat, <int>amount - 1)
        declined[0] = 0
        return 1
    if not optional_seats(g, declined[0]) >> seat & 1:  # let it go
        return 0
    declined[0] |= 1 << seat
    return 1


cdef int play_bots(Core* c, Game* g, int* declined) noexcept nogil:
    """Let the bots act until a learning seat is to act (returned) or the game is over (-1)."""
    cdef int s
    while True:
        s = next_actor(g, declined[0])
        if s < 0 or c.policy[s] == LEARNER:
            return s
        bot_act(c, g, declined, s, c.policy[s])


cdef void deal(Core* c, int i, Game* template) noexcept nogil:
    """A new game in slot ``i``, played on to the first decision of a learning seat."""
    cdef Game* g = &c.games[i]
    cdef int s
    while True:
        g[0] = template[0]
        g.rng = splitmix_next(&c.o.streams[i])
        if c.logs != NULL:
            c.logs[i].n = 0
            c.logs[i].owner = <void*>g
            g.log = &c.logs[i]
        new_game(g)
        c.o.declined[i] = 0
        if play_bots(c, g, &c.o.declined[i]) >= 0:
            break
    for s in range(c.n):
        c.o.seen[4 * i + s] = g.scores[s]


cdef void observe(Core* c, int i, float* obs, int8_t* mask) noexcept nogil:
    cdef Game* g = &c.games[i]
    cdef int s = next_actor(g, c.o.declined[i]), seat = s, k
    if seat < 0:
        seat = c.learner if c.learner >= 0 else 0
    encode(g, &c.e, seat, obs)
    for k in range(c.n):  # a score past the target, or below minus the target, is clipped
        if obs[2 * c.n + k] > 1.0:
            obs[2 * c.n + k] = 1.0
        elif obs[2 * c.n + k] < -1.0:
            obs[2 * c.n + k] = -1.0
    write_mask(c, g, c.o.declined[i], s, mask)
    c.o.seat_out[i] = seat


cdef void reset_one(Core* c, int i, Game* template) noexcept nogil:
    deal(c, i, template)
    c.o.pending[i] = 0
    observe(c, i, c.o.obs + <Py_ssize_t>i * c.e.size, c.o.mask + <Py_ssize_t>i * c.moves)


cdef double outcome(Game* g, int seat) noexcept nogil:
    """+1 for the winner, -1 for another seat, 0 when nobody won."""
    if not g.winners:
        return 0.0
    return 1.0 if g.winners >> seat & 1 else -1.0


cdef void step_one(Core* c, int i, int64_t mv, int64_t amount, Game* template) noexcept nogil:
    cdef Game* g = &c.games[i]
    cdef int n = c.n, s, actor, ok
    cdef int before[4]
    cdef int after[4]
    cdef double result[4]
    if next_step_deal(&c.o, i, n):
        reset_one(c, i, template)
        return
    actor = next_actor(g, c.o.declined[i])
    for s in range(n):
        before[s] = g.scores[s]
    ok = actor >= 0 and apply_choice(c, g, &c.o.declined[i], actor, mv, amount)
    if ok and c.learner >= 0:
        play_bots(c, g, &c.o.declined[i])
    for s in range(n):
        after[s] = g.scores[s]
        result[s] = outcome(g, s) if g.over else 0.0
    settle(&c.o, i, n, c.learner, actor, ok, g.over, c.win, c.illegal, before, after, result)
    if not c.o.term[i]:
        observe(c, i, c.o.obs + <Py_ssize_t>i * c.e.size, c.o.mask + <Py_ssize_t>i * c.moves)
        return
    if c.same_step:
        observe(c, i, c.o.final_obs + <Py_ssize_t>i * c.e.size, c.o.final_mask + <Py_ssize_t>i * c.moves)
        reset_one(c, i, template)
        return
    observe(c, i, c.o.obs + <Py_ssize_t>i * c.e.size, c.o.mask + <Py_ssize_t>i * c.moves)
    if not ok:  # the game goes on, but the episode is over: no move is offered
        memset(c.o.mask + <Py_ssize_t>i * c.moves, 0, c.moves)
    c.o.pending[i] = 1


cdef class VectorCore:
    """The C state of :class:`muggins.cards.muggins31.vector.CardMugginsVectorEnv`: ``num_envs`` games and the
    arrays they write (see the module docstring). Made and driven by that class."""

    cdef Core c
    cdef Game template
    cdef object rules
    cdef readonly int num_envs
    cdef tuple _keep           # the arrays whose memory the core writes
    cdef object _games_buf

    def __init__(self, rules: object, num_players: int, num_envs: int, policies: list[int], learner: int,
                 moves: int, amounts: int, go: int, mug: int, claim: int, win: bool, illegal_reward: float,
                 same_step: bool, arrays: dict, search_iterations: int = 64) -> None:
        cdef NativeCardMuggins t = NativeCardMuggins(rules, num_players, 0)
        if go != GO or (mug, claim, moves) != ((GO + 1, GO + 2, GO + 4) if t.g.manual else (-2, -2, GO + 2)):
            raise RuntimeError("the compact numbering and the native engine's disagree on the moves")
        self.template = t.g
        self.template.log = NULL
        self.rules = rules
        self.num_envs = num_envs
        cdef Core* c = &self.c
        c.e = make_enc(rules, num_players)
        c.n = num_players
        for s in range(4):
            c.policy[s] = policies[s] if s < num_players else LEARNER
        c.learner = learner
        c.moves = moves
        c.amounts = amounts
        c.mug = mug
        c.claim = claim
        c.letgo = moves - 1
        c.win = bool(win)
        c.same_step = bool(same_step)
        c.illegal = illegal_reward
        c.search_iterations = search_iterations
        c.scale = max(5.0, rules.target / 10.0)
        c.logs = NULL
        if P_SEARCH in policies:  # the search reads the round's events: each game keeps its log
            c.logs = <EvLog*>calloc(num_envs, sizeof(EvLog))
            if c.logs == NULL:
                raise MemoryError("no memory for the games' event logs")
        # one record per game, kept in a bytes-like buffer numpy owns (freed with this object)
        self._games_buf = np.zeros(num_envs * sizeof(Game), dtype=np.uint8)
        cdef uint8_t[::1] gb = self._games_buf
        c.games = <Game*>&gb[0]
        self._keep = bind_out(&c.o, arrays, num_envs, learner < 0, same_step)

    def __dealloc__(self) -> None:
        cdef int i
        if self.c.logs != NULL:
            for i in range(self.num_envs):
                free(self.c.logs[i].buf)
            free(self.c.logs)
            self.c.logs = NULL

    def reset(self, seeds: object, lo: int, hi: int) -> None:
        """Deal new games in slots ``lo`` to ``hi - 1``, each seeding its stream of deals from ``seeds[i]``
        (a uint64 array), and observe them."""
        cdef uint64_t[::1] sd = seeds
        cdef int i, a = lo, b = hi
        for i in range(a, b):
            self.c.o.streams[i] = sd[i]
        with nogil:
            for i in range(a, b):
                reset_one(&self.c, i, &self.template)

    def step(self, actions: object, lo: int, hi: int) -> None:
        """Step games ``lo`` to ``hi - 1`` with ``actions`` (int64, one row (move, amount) per game),
        without the GIL."""
        cdef int64_t[:, ::1] act = actions
        cdef int i, a = lo, b = hi
        if act.shape[0] != self.num_envs or act.shape[1] != 2:
            raise ValueError(f"actions are {self.num_envs} rows of (move, amount)")
        with nogil:
            for i in range(a, b):
                step_one(&self.c, i, act[i, 0], act[i, 1], &self.template)

    def game(self, i: int) -> NativeCardMuggins:
        """A copy of game ``i`` as a :class:`~muggins.cards.muggins31.native.NativeCardMuggins`, with a copy of
        its event log from the current round's start where a search opponent keeps one (else none)."""
        if not 0 <= i < self.num_envs:
            raise IndexError(f"there is no game {i!r}; games are 0 to {self.num_envs - 1}")
        cdef NativeCardMuggins s = NativeCardMuggins.__new__(NativeCardMuggins)
        cdef EvLog* L
        s.layout(self.rules, self.c.n)
        s.g = self.c.games[i]
        s.g.log = NULL
        if self.c.logs != NULL and self.c.logs[i].n:
            L = &self.c.logs[i]
            trim_log(L)
            s.evlog.buf = <int*>malloc(L.n * sizeof(int))
            if s.evlog.buf == NULL:
                raise MemoryError("no memory for the event log")
            memcpy(s.evlog.buf, L.buf, L.n * sizeof(int))
            s.evlog.n = s.evlog.cap = L.n
            s.g.log = &s.evlog
        return s

    def declined(self, i: int) -> int:
        """The seats (a bit each) of game ``i`` that let its open window go."""
        if not 0 <= i < self.num_envs:
            raise IndexError(f"there is no game {i!r}; games are 0 to {self.num_envs - 1}")
        return self.c.o.declined[i]


def mask_native(game: NativeCardMuggins, seat: int, declined: int = 0) -> np.ndarray:
    """The environment's mask of ``seat``'s moves in the native ``game`` (the compact move head, "let it go"
    last), the seats of ``declined`` (a bit each) having let the open window go: the moves of
    ``compact_actions_of(state).move_mask(state, seat)`` and "let it go" for a seat asked about the window."""
    cdef Game* g = &game.g
    cdef Core c
    if not 0 <= seat < g.n:
        raise ValueError(f"there is no seat {seat!r}; seats are 0 to {g.n - 1}")
    c.moves = GO + 4 if g.manual else GO + 2
    c.mug = GO + 1 if g.manual else -2
    c.claim = GO + 2 if g.manual else -2
    c.letgo = c.moves - 1
    out = np.zeros(c.moves, dtype=np.int8)
    cdef int8_t[::1] o = out
    write_mask(&c, g, declined, seat, &o[0])
    return out
