# The native card Muggins engine's C data and the functions other native modules use (native.pyx defines
# them; muggins.cards.muggins31.vector_native steps many games with them).
from libc.stdint cimport uint64_t

from muggins.core.idlog cimport IdLog
from muggins.core.pyrandom cimport MT, DrawLog

cdef enum:
    GO = 52             # the internal id of a go (a play is its card)
    CLAIM_NONE = -1
    POLICY_RANDOM = 0
    POLICY_GREEDY = 1
    POLICY_MIXED = 2
    EV_WIDTH = 8
    EV_CUT = 0          # seat mask, four cards
    EV_ROUND_START = 1  # round, dealer, leader, stock
    EV_DEALT = 2        # seat: count (cards in EV_CONT records)
    EV_CONT = 3         # six cards, -1 padded
    EV_PLAY = 4         # seat: card, total
    EV_SCORE = 5        # actor: side, points, reason
    EV_DRAW = 6         # seat: card, why (0 refill, 1 go)
    EV_GO = 7           # seat: total
    EV_PILE_END = 8     # last player: total, count (cards in EV_CONT records)
    EV_PILE_START = 9   # leader
    EV_ROUND_END = 10   # round, scores
    EV_TIE_BREAK = 11   # seat mask
    EV_GAME_END = 12    # winner mask, scores
    EV_CLAIM = 13       # seat: points, late
    EV_OVER_CLAIM = 14  # seat: points, true points, what, penalty
    EV_MISSED = 15      # seat: side, points, reason
    EV_MUGGINS = 16     # seat: on, outcome, points, named (-1 none), missed, reason
    R_PLAY = 0
    R_LAST = 1
    R_MUGGED = 2
    R_FALSE_CALL = 3
    R_MUGGINS = 4
    R_PENALTY = 5
    W_PLAY = 0
    W_LAST = 1
    O_STEAL = 0
    O_FORFEIT = 1
    O_STEAL_AND_DEDUCT = 2
    O_FALSE_CALL = 3
    GD_ONE = 0
    GD_NONE = 1
    GD_BELOW = 2
    MAX_SLOTS = 78      # a search frame's slots: one per card another seat holds
    MAX_DEC = 64        # the others' plays of this round a frame keeps


cdef struct EvLog:
    int* buf
    long n          # ints used (events x EV_WIDTH)
    long cap
    void* owner     # the one Game that writes here: a copy of the struct never does


cdef struct Game:
    # the rules
    int n                 # players (each his own side)
    int cap
    int cap_bonus
    int plus_last         # thirty_one_plus_last
    int last_points
    int hand_size
    int draw_after        # draw_after_play
    int go_draw           # GD_*
    int final             # go_is_final_for_pile
    int close_after       # close_after_others_pass
    int lead_scores
    int lead_after_passer  # lead_after_last_passer
    int mug_last
    int until_play        # window=until_next_play
    int target
    int end_of_round      # win_check=end_of_round
    int low_first         # first_dealer=low_card
    int manual
    int lenient
    int mug_rule          # O_STEAL, O_FORFEIT, O_STEAL_AND_DEDUCT
    int over_penalty
    int false_call        # 0 none, 1 deduct, 2 award
    int false_points
    int false_cap_play    # the most a false call awards the accused: on a play's step, on any other
    int false_cap_step
    # the position
    uint64_t held[4]
    int stock[52]         # in draw order: stock[sp] is the top
    int sp
    int nstock
    int pile[52]
    int npile
    uint64_t closed       # the cards of the round's closed piles
    int total
    int turn
    int dealer
    int round_no
    int passed            # a bit per seat
    int last_player
    int last_passer
    int scores[4]
    int over
    int winners           # a bit per seat
    # the muggins window (the scorer's side is his seat)
    int w_open
    int w_scorer
    int w_missed
    int w_claimed
    int w_reason
    int w_what
    int w_may
    int w_late
    int claim             # the claim of the move being applied (CLAIM_NONE: none)
    int quiet             # 1: a playout's plays announce nothing (else their true points)
    uint64_t rng
    int feed              # 1: the next deal is feed_cards (hands in seat order, then the stock)
    int feed_cards[52]
    int external          # 1: deals come from the owner's chance (a deal with none fed waits: ``pending``)
    int pending           # 1: a round waits for its deal
    int stamp[52]         # when each held card came into its hand (the order of the pure engine's hands)
    int nstamp
    EvLog* log


cdef struct Frame:
    # what one seat knows, for the search: the position with every card it cannot see taken out, the cards
    # it has not seen and where they may be (draw_world draws the rest of a world from them)
    Game base               # the position with every card the seat cannot see taken out
    int pool[52]            # the unseen cards, ascending
    int npool
    int nslots              # slots in filling order, the most constrained first
    int slot_owner[MAX_SLOTS]
    uint64_t slot_forbid[MAX_SLOTS]   # the cards a slot cannot hold (what a go ruled out)
    # the others' plays of this round, to weigh a world by how well they fit a greedy player (``infer``)
    int ndec
    int dec_total[MAX_DEC]            # the total before the play
    int dec_lead[MAX_DEC]             # 1: it led the pile
    int dec_pts[MAX_DEC]              # the points it made
    int dec_value[MAX_DEC]            # the value of the card it laid
    uint64_t dec_known[MAX_DEC]       # the cards its player held then that are known now (played since)
    uint64_t dec_slots[MAX_DEC][2]    # the slots (cards still held) its player held then, a bit per slot
    double infer                      # a world's weight: exp(-infer x plays a card then held would have beaten
    double heavy                      # in points - heavy x plays a card of equal points and more value would have)


cdef void apply_move(Game* g, int seat, int a) noexcept nogil
cdef void call_muggins(Game* g, int seat, int amount) noexcept nogil
cdef void late_claim(Game* g, int seat, int amount) noexcept nogil
cdef int true_points(Game* g, int seat, int a) noexcept nogil
cdef int choose(Game* g, int seat, int policy, double greedy) noexcept nogil
cdef void new_game(Game* g) noexcept nogil
cdef int frame_of(const Game* g, int seat, Frame* f) noexcept nogil
cdef int draw_world(const Frame* f, Game* w, uint64_t* rng) noexcept nogil
cdef int search_move(Game* g, int seat, long iterations, double c, int horizon, double greedy,
                     double scale) noexcept nogil


cdef class NativeCardMuggins:
    cdef Game g
    cdef EvLog evlog
    cdef object rules
    cdef int width, bound, id_go, id_muggins, id_claim, id_size
    cdef object deal_fn   # the owner's chance: dealer -> (hands, stock), see follow_chance
    cdef object owner     # a weak reference to the state this game serves (bind_owner), or None
    cdef bint owner_deals  # the owner's chance gives the deals (bind_owner), not deal_fn
    cdef IdLog hist       # (seat, id) of every move applied by apply_id while the history is kept
    cdef bint keep_hist
    cdef MT mt            # the owner's random.Random, while the engine holds it (own_rng): see take_rng
    cdef bint own_rng
    cdef DrawLog drawn    # the outcomes drawn from it, not yet taken (take_drawn)
    cdef public object chance  # the owner's Chance (the state's, whose generator this game may hold)
    cdef tuple act_table  # the Actions of the owner's protocol: see bind_actions
    cdef dict act_ids
    cdef object act_window
    cdef object act_slow

    cdef int layout(self, object rules, int n) except -1
    cdef int record(self, int seat, int i) except -1
    cdef int resume(self) except -1
    cdef int mt_deal(self) except -1
    cdef list legal_list(self, int seat)
    cdef list actions_of(self, int seat, tuple table)
    cdef int apply_checked(self, object seat, object i) except -1
    cdef int apply_int(self, int seat, int i) except -1
