package swiss

// Reason says why a player met this opponent (P-10). The String form is a
// stable code safe to store; Label is the rule book's Chinese term.
type Reason int8

// Opponent reasons, in the rule book's order of preference.
const (
	FirstRoundPair Reason = iota // P-3: the first-round table
	SameRank                     // 同位: head of the opposite colour list
	Offset                       // 错位: further down the opposite list
	SameList                     // 通行: inside the picker's own list
	Undo                         // 拆对: the positional choice would block the group
	FloatDown                    // 下调: one player came down from a higher group
)

var reasonCodes = [...]string{"firstRound", "sameRank", "offset", "sameList", "undo", "floatDown"}
var reasonLabels = [...]string{"首轮配对", "同位配对", "错位配对", "通行配对", "拆对配对", "下调配对"}

// String returns the stable code.
func (r Reason) String() string { return reasonCodes[r] }

// Label returns the Chinese term of appendix 3 §3.
func (r Reason) Label() string { return reasonLabels[r] }

// PickReason says why the picker chose first in its group (P-9).
type PickReason int8

// Picker reasons, in the order of P-9.
const (
	PickFirstRound PickReason = iota // P-3: round 1 goes by number
	PickFloater                      // 高分先编: came down from a higher group
	PickImbalance                    // 少先或多先: largest colour difference
	PickStreak                       // 连先或连后: longest run of one colour
	PickNumber                       // 单轮次小号先编, 双轮次大号先编
)

var pickCodes = [...]string{"firstRound", "floater", "imbalance", "streak", "number"}
var pickLabels = [...]string{"首轮按序号", "高分先编", "少先或多先先编", "连先或连后先编", "单轮小号、双轮大号先编"}

// String returns the stable code.
func (p PickReason) String() string { return pickCodes[p] }

// Label returns the Chinese wording of appendix 3 §2.
func (p PickReason) Label() string { return pickLabels[p] }

// ColourCase says which rule gave the colours (P-11, appendix 3 §4).
type ColourCase int8

// Colour cases. The numbers of §4 are in Case.
const (
	ColourFirstRound   ColourCase = iota // P-3: odd tables smaller number red, even tables larger
	ColourFewerReds                      // §4(1): 少先VS多先，少先的先走
	ColourAlternate                      // §4(2)(7): equal counts, black last time gets red
	ColourLongerBlacks                   // §4(3)(5): both black last, longer black run gets red
	ColourShorterReds                    // §4(4)(6): both red last, shorter red run gets red
	ColourNumberSum                      // §4(8): odd sum smaller number red, even sum larger
	ColourHigherScore                    // §4(9): from the third-last round the higher score's need wins
	ColourAvoidThree                     // P-8, §1.11(3): swapped to avoid +3 or three in a row
)

var colourCodes = [...]string{"firstRound", "fewerReds", "alternate", "longerBlacks", "shorterReds", "numberSum", "higherScore", "avoidThree"}
var colourLabels = [...]string{
	"首轮单号台小号先走、双号台大号先走",
	"少先VS多先，少先的先走",
	"平先，上轮后走的先走",
	"平先均连后，连后多的先走",
	"平先均连先，连先少的先走",
	"条件均同，号码和奇数小号先走、偶数大号先走",
	"倒数第三轮起，低分服从高分",
	"避免多三先、多三后或连走三先、三后",
}
var colourSections = [...]int{0, 1, 2, 3, 4, 8, 9, 0}

// String returns the stable code.
func (c ColourCase) String() string { return colourCodes[c] }

// Label returns the Chinese wording of appendix 3 §4.
func (c ColourCase) Label() string { return colourLabels[c] }

// Section returns the item number of appendix 3 §4 (0 when the rule comes
// from elsewhere: P-3 or P-8).
func (c ColourCase) Section() int { return colourSections[c] }

// Explanation tells an arbiter how a pair came about.
type Explanation struct {
	Group    int        // score of the score group the pair was made in
	Picker   int        // pairing number of the player who chose (P-9)
	PickedBy PickReason // why that player chose first
	Reason   Reason     // why this opponent (P-10)
	// Rank is the opponent's position in the list the picker chose from
	// (0 = head, counting only players still unpaired). Met counts
	// candidates passed over because they had already met the picker or
	// may not meet (P-5); Blocked counts those passed over because taking
	// them would prevent the most complete pairing (拆对, P-8); Avoided
	// counts those passed over because the chosen partner avoids what
	// pairing them would bring: §4 colours that had to be swapped, +3 or
	// three in a row (§1.11(3)), or a third float (P-6).
	Rank, Met, Blocked, Avoided int
	Colour                      ColourCase // why these colours (P-11)
}
