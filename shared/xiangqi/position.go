package xiangqi

// StartFEN is the initial position (B-2).
const StartFEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

// Position is a board with the side to move, the ply count and the no-capture
// count. The zero value is not a position: build one with ParseFEN or
// NewPosition. A Position is a plain value; copy it with Clone.
type Position struct {
	board     [256]uint8 // slot numbers, see board.go
	sqOf      [48]uint8  // each slot's cell, 0 once captured
	side      Color
	hash      uint64
	ply       int
	noCapture int
}

// NewPosition returns the start position.
func NewPosition() *Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("xiangqi: StartFEN does not parse: " + err.Error())
	}
	return p
}

// Clone returns an independent copy.
func (p *Position) Clone() *Position {
	q := *p
	return &q
}

// SideToMove returns the side whose turn it is.
func (p *Position) SideToMove() Color { return p.side }

// PieceAt returns the piece on s, or NoPiece when s is empty or off the board.
func (p *Position) PieceAt(s Square) Piece {
	if !s.Valid() {
		return NoPiece
	}
	return slotPiece[p.board[sq256[s]]]
}

// GeneralSquare returns where c's general stands.
func (p *Position) GeneralSquare(c Color) Square {
	return Square(sq90[p.sqOf[16<<c]])
}

// Pieces returns the squares of c's pieces of kind k, in a fixed but
// unspecified order. Notation uses it to find same-kind pieces on one file.
func (p *Position) Pieces(c Color, k Kind) []Square {
	if k <= NoKind || k > Soldier {
		return nil
	}
	ks := kindSlots[k]
	var out []Square
	for i := 0; i < ks.n; i++ {
		if s := p.sqOf[16<<c+uint8(ks.first+i)]; s != 0 {
			out = append(out, Square(sq90[s]))
		}
	}
	return out
}

// Hash returns the Zobrist key of the placement and the side to move (not the
// clocks). Keys come from a fixed seed, so a hash is stable across processes.
func (p *Position) Hash() uint64 { return p.hash }

// Ply returns the number of half-moves played: 0 at red's first move, derived
// from the FEN fullmove number as (fullmove-1)*2, plus 1 when black is to move.
func (p *Position) Ply() int { return p.ply }

// NoCaptureCount returns the plies since the last capture (G-3: 自然限着 counts
// these in rounds of two), taken from the FEN halfmove field when given.
func (p *Position) NoCaptureCount() int { return p.noCapture }

// Captured returns the piece that m would capture (NoPiece for a quiet move).
// It does not check legality.
func (p *Position) Captured(m Move) Piece {
	return p.PieceAt(m.To())
}

// Undo holds what MakeMove needs to take a move back.
type Undo struct {
	hash      uint64
	noCapture int32
	captured  uint8
}

// MakeMove plays m without checking it, for search and perft. m must be
// legal (from LegalMoves or IsLegal); UnmakeMove with the returned Undo
// restores the position exactly. It does not allocate.
func (p *Position) MakeMove(m Move) Undo {
	return p.makeMove(sq256[m.From()], sq256[m.To()])
}

// UnmakeMove takes back m, which must be the last move made with MakeMove.
func (p *Position) UnmakeMove(m Move, u Undo) {
	p.unmakeMove(sq256[m.From()], sq256[m.To()], u)
}

func (p *Position) makeMove(from, to uint8) Undo {
	u := Undo{hash: p.hash, noCapture: int32(p.noCapture)}
	v := p.board[from]
	c := p.board[to]
	u.captured = c
	h := p.hash ^ zobSide ^ zobPiece[slotPiece[v]][from] ^ zobPiece[slotPiece[v]][to]
	if c != 0 {
		h ^= zobPiece[slotPiece[c]][to]
		p.sqOf[c] = 0
		p.noCapture = 0
	} else {
		p.noCapture++
	}
	p.hash = h
	p.board[to] = v
	p.board[from] = 0
	p.sqOf[v] = to
	p.side ^= 1
	p.ply++
	return u
}

func (p *Position) unmakeMove(from, to uint8, u Undo) {
	v := p.board[to]
	p.board[from] = v
	p.sqOf[v] = from
	c := u.captured
	p.board[to] = c
	if c != 0 {
		p.sqOf[c] = to
	}
	p.hash = u.hash
	p.noCapture = int(u.noCapture)
	p.side ^= 1
	p.ply--
}

func (p *Position) computeHash() uint64 {
	var h uint64
	for s := 0; s < 90; s++ {
		c := sq256[s]
		if v := p.board[c]; v != 0 {
			h ^= zobPiece[slotPiece[v]][c]
		}
	}
	if p.side == Black {
		h ^= zobSide
	}
	return h
}
