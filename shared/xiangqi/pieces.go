// Package xiangqi is the rules engine: board, pieces, legal moves, game-end
// detection and the repetition facts that the game service builds its rulings
// on (B-1…B-10, G-1, G-4, G-5, G-6). It imports only the standard library.
//
// Where each concept lives: pieces.go sides, piece kinds, pieces and squares;
// board.go their letters; position.go the Position; fen.go FEN; movegen.go
// legal moves, check and perft; play.go playing a move and the game's status;
// history.go a game's positions and the repetition facts; material.go mating
// material and dead positions.
package xiangqi

// Color is a side. Red sits at the bottom and moves first (B-1).
type Color int8

// The two sides.
const (
	Red Color = iota
	Black
)

// Opponent returns the other side.
func (c Color) Opponent() Color { return c ^ 1 }

// String returns "red" or "black".
func (c Color) String() string {
	if c == Red {
		return "red"
	}
	return "black"
}

// Kind is a piece type without colour (B-2).
type Kind int8

// The seven piece kinds; NoKind marks an empty square.
const (
	NoKind Kind = iota
	General
	Advisor
	Elephant
	Horse
	Chariot
	Cannon
	Soldier
)

// Piece is a coloured piece; the zero value is an empty square.
type Piece int8

// NoPiece is an empty square.
const NoPiece Piece = 0

// MakePiece combines a colour and a kind. Red pieces are 1…7, black 9…15.
func MakePiece(c Color, k Kind) Piece {
	if k == NoKind {
		return NoPiece
	}
	return Piece(int8(c)<<3 | int8(k))
}

// Kind returns the piece's kind (NoKind for an empty square).
func (p Piece) Kind() Kind { return Kind(p & 7) }

// Color returns the piece's side; meaningless for NoPiece.
func (p Piece) Color() Color { return Color(p >> 3 & 1) }

// Square is a point of the board: Rank()*9 + File(). File 0…8 is ICCS a…i
// (red's left to right), rank 0…9 is ICCS 0…9 (red's back rank is 0).
type Square int8

// NoSquare is the absent square.
const NoSquare Square = -1

// NewSquare returns the square at file f (0…8) and rank r (0…9).
func NewSquare(f, r int) Square { return Square(r*9 + f) }

// File returns 0…8 (ICCS a…i).
func (s Square) File() int { return int(s) % 9 }

// Rank returns 0…9 (ICCS 0…9, red's side first).
func (s Square) Rank() int { return int(s) / 9 }

// Valid reports whether s is on the board.
func (s Square) Valid() bool { return s >= 0 && s < 90 }

// String returns the ICCS name of the square, such as "h2".
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('0' + s.Rank())})
}

// Move is a from-to pair packed in 16 bits: from in the low byte, to in the high byte.
// The zero Move (a0a0) is never legal, so it doubles as "no move".
type Move uint16

// NoMove is the null move.
const NoMove Move = 0

// NewMove returns the move from→to.
func NewMove(from, to Square) Move { return Move(uint16(uint8(from)) | uint16(uint8(to))<<8) }

// From returns the origin square.
func (m Move) From() Square { return Square(uint8(m)) }

// To returns the destination square.
func (m Move) To() Square { return Square(uint8(m >> 8)) }

// String returns the move in lowercase ICCS, such as "h2e2".
func (m Move) String() string { return m.From().String() + m.To().String() }
