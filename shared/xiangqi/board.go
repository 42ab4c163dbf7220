package xiangqi

// The board is a 16×16 mailbox: rank r, file f sits at (r+3)*16 + f+3. The
// padding is wide enough that a horse jump (±2) from any point lands on a
// padding cell rather than wrapping, so move generation needs no bounds checks:
// padding cells hold off, which is neither empty nor anyone's piece.

// Each of the 32 pieces owns a fixed slot: red slots are 16…31, black 32…47.
// Board cells hold the slot number (0 = empty, off = padding), so the colour of
// a cell is cell>>4 (1 red, 2 black) and a piece's square is sqOf[slot].
const off uint8 = 64

// Slot offsets within a side, in B-2 order.
const (
	slotGen    = 0  // 1 general
	slotAdv    = 1  // 2 advisors
	slotEle    = 3  // 2 elephants
	slotHorse  = 5  // 2 horses
	slotRook   = 7  // 2 chariots
	slotCannon = 9  // 2 cannons
	slotPawn   = 11 // 5 soldiers
	slotEnd    = 16
	maxMoves   = 128 // more than the 119 pseudo-legal moves any side can have
)

// kindSlots gives each kind's first slot and how many a side has (B-2).
var kindSlots = [8]struct{ first, n int }{
	General:  {slotGen, 1},
	Advisor:  {slotAdv, 2},
	Elephant: {slotEle, 2},
	Horse:    {slotHorse, 2},
	Chariot:  {slotRook, 2},
	Cannon:   {slotCannon, 2},
	Soldier:  {slotPawn, 5},
}

var (
	sq256      [90]uint8 // public Square → mailbox cell
	sq90       [256]int8 // mailbox cell → public Square, -1 for padding
	slotPiece  [256]Piece
	inPalace   [2][256]bool // B-3
	advisorPt  [2][256]bool // B-4
	elephantPt [2][256]bool // B-5
	ownHalf    [2][256]bool // B-9: a soldier outside its own half has crossed the river
	emptyBoard [256]uint8
	horseA     [256]uint8 // for a diagonal offset d, the two horse offsets whose leg is d
	horseB     [256]uint8
	zobPiece   [16][256]uint64
	zobSide    uint64
)

var (
	orthDirs = [4]uint8{1, 255, 16, 240} // right, left, up (towards black), down
	diagDirs = [4]uint8{17, 15, 241, 239}
)

func cell(f, r int) uint8 { return uint8((r+3)*16 + f + 3) }

func init() {
	for i := range sq90 {
		sq90[i] = -1
		emptyBoard[i] = off
	}
	for s := 0; s < 90; s++ {
		c := cell(s%9, s/9)
		sq256[s] = c
		sq90[c] = int8(s)
		emptyBoard[c] = 0
	}
	for c := Red; c <= Black; c++ {
		for k := General; k <= Soldier; k++ {
			ks := kindSlots[k]
			for i := 0; i < ks.n; i++ {
				slotPiece[16<<c+uint8(ks.first+i)] = MakePiece(c, k)
			}
		}
	}
	for s := 0; s < 90; s++ {
		f, r := s%9, s/9
		c := sq256[s]
		for col := Red; col <= Black; col++ {
			rr := r // rank counted from col's own back rank
			if col == Black {
				rr = 9 - r
			}
			ownHalf[col][c] = rr <= 4
			inPalace[col][c] = rr <= 2 && f >= 3 && f <= 5
			advisorPt[col][c] = inPalace[col][c] && (f+rr)%2 == 1
			elephantPt[col][c] = rr <= 4 && rr%2 == 0 && f%2 == 0 && (f+rr)%4 == 2
		}
	}
	for _, d := range diagDirs {
		dr, df := uint8(16), uint8(1)
		if d == 15 || d == 239 {
			df = 255
		}
		if d > 128 {
			dr = 240
		}
		horseA[d] = 2*dr + df
		horseB[d] = dr + 2*df
	}
	// Fixed-seed keys so a hash means the same position in every process and
	// can be stored (splitmix64).
	seed := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 {
		seed += 0x9E3779B97F4A7C15
		z := seed
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for p := 1; p < 16; p++ {
		for s := 0; s < 90; s++ {
			zobPiece[p][sq256[s]] = next()
		}
	}
	zobSide = next()
}

var kindNames = [8]string{"none", "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"}

// String returns the English name of the kind, such as "horse".
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "invalid"
	}
	return kindNames[k]
}

// String returns the side and kind, such as "red horse", or "empty".
func (p Piece) String() string {
	if p == NoPiece {
		return "empty"
	}
	return p.Color().String() + " " + p.Kind().String()
}
