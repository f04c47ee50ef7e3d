# The native domino engine's C data and the functions other native modules use (native.pyx defines them;
# muggins.rl.vector_native steps many games with them).
from libc.stdint cimport uint64_t

cdef enum:
    MAXTILES = 56      # a double-9 set has 55 tiles: a hand is one 64-bit mask
    MAXPLACES = 24     # free places of a layout: 2 on a line, 4 with one spinner, 22 (double-9) all spinners
    MAXMOVES = 256     # legal regular moves of one seat at once (tiles x places)
    TABLE = 512        # counts scored by table; a layout counts at most the set's pips (495 for double-9)
    ENDS_HAND = 50     # what ``defensive_pick`` prices going out at, as points the next seat cannot reply
    K_NONDOUBLE = 0
    K_CROSS = 2
    K_SPINNER = 3
    # out bonus
    OB_PER_OPP = 0
    OB_TOTAL = 1
    OB_RAW = 2
    OB_PER5 = 3
    OB_LARGEST = 4
    OB_SUBTRACT = 5
    OB_CHIP = 6
    OB_PRIME = 7
    OB_NONE = 8
    # blocked
    BL_OPP = 0
    BL_DIFF = 1
    BL_CASCADE = 2
    BL_NONE = 3
    BL_SUBTRACT = 4
    # round mode
    RM_PER_HAND = 0
    RM_NET = 1
    RM_NONE = 2
    # blocked tie
    BT_NOBODY = 0
    BT_SPLIT = 1
    BT_ALL = 2
    # first lead / next lead
    FL_LOT_HEAVIEST = 0
    FL_LOT_LIGHTEST = 1
    FL_HIGHEST_DOUBLE = 2
    FL_MUST_SET = 3    # the lot picks the leader, who must set a double (drawing for one)
    NL_WINNER_ELSE_LOT = 0
    NL_ROTATE = 1
    NL_LOWEST = 2
    # muggins outcome, false call
    MO_STEAL = 0
    MO_FORFEIT = 1
    MO_STEAL_DEDUCT = 2
    FC_NONE = 0
    FC_DEDUCT = 1
    FC_AWARD = 2
    # knock state of a hand (partnership knocking): none, the partner must score, the knocker plays on
    KN_NONE = 0
    KN_PARTNER = 1
    KN_FORCED = 2


cdef struct Rules:
    int n, top, ntiles, each
    int manual, lenient
    int spins, sides_first, sniff_ends
    int draw_limit, reserve
    int first_lead, lot_high_end, next_lead
    int out_bonus, blocked, round_mode, round_to, blocked_tie, per_unit, double_once
    int target, exact_target, no_win_on_down, end_of_hand, entry, tie_break
    int muggins_rule, over_claim_penalty, false_call, false_call_points
    int false_call_cap[2]    # per window reason (R_PLAY, R_DOMINO): the most a false call awards
    int B, slots, width, play_stop, mug_start, claim_start, size
    int table[TABLE]
    int hi[MAXTILES]
    int lo[MAXTILES]
    uint64_t by_value[16]
    # the rest of the preset family: five-up, seven-toed-pete, merry-go-round, partnerships and options
    int all_doubles, fill_first, extra, voluntary, knocking, lead_draw, must_set, partner_pips, mug_bonus
    int teams, nsides
    int side[4]
    uint64_t lead_ok   # the tiles that may be led (lead_must_be)


cdef struct Game:
    uint64_t hand[4]
    int bone[MAXTILES]
    int nbone
    int turn, lead_phase, count, hand_no
    int scores[4]
    int entered[4]
    int leader, last_out, draws, dead_passes, tiebreak_left
    int over, winners
    int nnodes, spinner
    int kind[MAXTILES]
    int v0[MAXTILES]
    int v1[MAXTILES]
    int nmask[MAXTILES]
    int nplaces
    int pnode[MAXPLACES]
    int pbit[MAXPLACES]
    int pval[MAXPLACES]
    int w_open, w_scorer, w_missed, w_may, w_late
    int w_claimed            # what the scorer announced with his move or late, + 1 (0: nothing; the view's
                             # "claimed")
    uint64_t rng
    int knock, knocker
    int* ev                  # the event log (see log_put), NULL until something is logged
    int nev, evcap, ev_on    # ints used, ints allocated, whether events are logged
    int ev_lost              # the log ran out of memory: it is incomplete
    int why_seat, why_reason  # who and why the next award scores (set by log_why)
    int w_reason             # the open window's reason (R_PLAY, or R_DOMINO for a muggable bonus): logged only
    int ext_deal             # lots and deals come from outside (deal_hand): a hand's start waits for them
    int need_deal            # with ext_deal: the next hand waits for its lots and deal
    int* feed                # while deal_hand runs: the tiles of the lots, then the deal, in order
    int nfeed                # the tiles of ``feed`` used


cdef int count_after(Game* g, Rules* r, int t, int k) noexcept nogil
cdef int regular(Game* g, Rules* r, int seat, int* out) noexcept nogil
cdef void start_hand(Game* g, Rules* r) noexcept nogil
cdef void apply_regular(Game* g, Rules* r, int seat, int move, int claim, int pick) noexcept nogil
cdef void call_muggins(Game* g, Rules* r, int seat, int amount) noexcept nogil
cdef void late_claim(Game* g, Rules* r, int seat, int amount) noexcept nogil


# the search (SO-ISMCTS, ``search``): what another native module needs to run it on a game of its own
cdef struct Frame:
    int seat
    int omniscient           # nothing hidden: every world is the true game
    int nslots               # the tiles other seats hold unseen: one slot each
    int slot_seat[MAXTILES]
    uint64_t forbid[MAXTILES]  # per slot, the tiles it cannot hold
    int npool                # the tiles the seat has not seen: the slots' and the boneyard's
    int pool[MAXTILES]
    # what the others' choices tell (``DominoState.choice_evidence``): per past decision ``d`` of another
    # seat, the slots he held then (a bit per slot), the weight of his moves with tiles now known
    # (``known[d]``) and, per tile, of the moves it would have given him (``z[d * 64 + tile]``)
    int ndec
    uint64_t* held
    double* known
    double* z


cdef struct Node:
    int actor, move, child, sibling, visits, avail
    double reward


cdef struct Knobs:  # a search's constants (see ``search``)
    double c, greedy, scale
    int horizon, model, defend, points


cdef struct Tree:
    Node* nodes
    int size, cap


cdef int new_node(Tree* t, int parent, int actor, int move) noexcept nogil
cdef long run_search(Game* root, Rules* r, Frame* f, Tree* t, int* path, long iterations, double deadline,
                     const Knobs* k, uint64_t rng, long* rollouts) noexcept nogil


cdef class _RulesBox:
    cdef Rules r


cdef _RulesBox rules_box(object rules, int n)


cdef class NativeDominoes:
    cdef Game g
    cdef _RulesBox box
    cdef object rules
    cdef object _dec   # what turns the int log into Events (muggins.dominoes.fast), made when first asked
    cdef object _init  # the position the log starts from (from_state), for the decoder
    cdef public object on_deal  # with external deals: called when a hand waits for its deal (deal_hand)
    # The pure engine's orders, kept while logging (``_order``), for the protocol's Actions in its order:
    # when each tile came into its hand, when each free place (layout tile x slot bit) was opened, and the
    # tile index of each layout tile
    cdef int ord_on, ord_at, hseqn, pseqn
    cdef int hseq[MAXTILES]
    cdef int pseq[MAXTILES * 4]
    cdef int ntile[MAXTILES]
    # where each layout tile sits (the views' geometry): the layout tile it was laid on (-1: the lead) and
    # the slot bit of that tile it took
    cdef int nparent[MAXTILES]
    cdef int nslot[MAXTILES]
    cdef list acts      # the play Actions of this tile set by key (shared: see ``_actions_of``)
    # the Actions the last legal_actions offered (each kept alive by a shared cache) and their ids
    cdef int offer_at, offer_seat, noffer
    cdef void* offer_ptr[MAXMOVES + 2]
    cdef int offer_ids[MAXMOVES + 2]
    cdef public object on_other  # apply(seat, action) for an Action not just offered (the protocol's checks)

    cdef _apply(self, object seat, object i, bint protocol)
    cdef _do(self, int seat, int i)
    cdef void _order(self, int node, int bit, int pk, int nid) noexcept
    cdef _start_fed(self, int* feed, int given)
    cdef void _order_play(self, int t, int k, int node, int bit, int pk, int nid) noexcept
    cdef void _fresh_places(self, int node) noexcept
    cdef list _offer(self, int seat)
