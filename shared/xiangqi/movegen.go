package xiangqi

// imove is a move in mailbox cells: from in the low byte, to in the high byte.
type imove uint16

func (m imove) public() Move {
	return NewMove(Square(sq90[uint8(m)]), Square(sq90[uint8(m>>8)]))
}

// moveList is a fixed buffer so generation never allocates.
type moveList struct {
	n int
	m [maxMoves]imove
}

// attacked reports whether side them attacks cell k (B-3…B-9), including the
// flying-general rule: an enemy general on k's open file "attacks" it.
func (p *Position) attacked(k uint8, them Color) bool {
	for _, d := range orthDirs {
		if p.rayAttacked(k, d, them) {
			return true
		}
	}
	for _, d := range diagDirs {
		if p.horseThrough(k, d, them) {
			return true
		}
	}
	// B-9: a soldier attacks the point ahead of it, and the points beside it
	// once it has crossed the river.
	b := &p.board
	pawn := MakePiece(them, Soldier)
	ahead := k - 16 // a red soldier below k moves up onto it
	if them == Black {
		ahead = k + 16
	}
	if slotPiece[b[ahead]] == pawn {
		return true
	}
	return !ownHalf[them][k] && (slotPiece[b[k+1]] == pawn || slotPiece[b[k-1]] == pawn)
}

// genLegal fills ml with the legal moves of the side to move.
//
// Pseudo-legal moves are tested for self-check (B-10) only when they can
// matter: when the side is in check, when the general moves, when a piece
// leaves the general's rank or file (chariot, cannon screen, flying general)
// or a diagonal neighbour of the general (a horse leg), or when a piece lands
// on the general's rank or file (it may become a cannon screen). Every other
// move cannot change what attacks the general.
func (p *Position) genLegal(ml *moveList) {
	ml.n = 0
	if p.board[0] != off {
		return // the zero Position has no board; scanning it would never stop
	}
	us := p.side
	them := us ^ 1
	base := uint8(16) << us
	mask := base | off // cells a move may not land on: own pieces and padding
	b := &p.board
	g := p.sqOf[base+slotGen]
	check := p.attacked(g, them)

	// General (B-3): always tested, it is the piece being attacked.
	for _, d := range orthDirs {
		t := g + d
		if inPalace[us][t] && b[t]&mask == 0 && p.safeAfter(g, t, t, them) {
			ml.m[ml.n] = imove(g) | imove(t)<<8
			ml.n++
		}
	}
	// risky gives, for a piece leaving from, the direction from the general
	// along a shared rank or file (0 if none) and the leg offset when from is
	// a diagonal neighbour of the general (0 if not).
	risky := func(from uint8) (uint8, uint8) {
		d := from - g
		if d == 17 || d == 15 || d == 256-15 || d == 256-17 {
			return dirFrom(g, from), d
		}
		return dirFrom(g, from), 0
	}
	add := func(from, to, fd, leg uint8) {
		if check {
			if !p.safeAfter(from, to, g, them) {
				return
			}
		} else if td := dirFrom(g, to); fd|td|leg != 0 && p.exposes(from, to, g, them, fd, td, leg) {
			return
		}
		ml.m[ml.n] = imove(from) | imove(to)<<8
		ml.n++
	}

	// Advisors (B-4).
	for s := base + slotAdv; s < base+slotAdv+2; s++ {
		from := p.sqOf[s]
		if from == 0 {
			continue
		}
		fd, leg := risky(from)
		for _, d := range diagDirs {
			t := from + d
			if advisorPt[us][t] && b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
		}
	}
	// Elephants (B-5): two diagonal steps, eye empty, own half only.
	for s := base + slotEle; s < base+slotEle+2; s++ {
		from := p.sqOf[s]
		if from == 0 {
			continue
		}
		fd, leg := risky(from)
		for _, d := range diagDirs {
			t := from + 2*d
			if elephantPt[us][t] && b[from+d] == 0 && b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
		}
	}
	// Horses (B-6): the orthogonal neighbour is the leg.
	for s := base + slotHorse; s < base+slotHorse+2; s++ {
		from := p.sqOf[s]
		if from == 0 {
			continue
		}
		fd, leg := risky(from)
		if b[from+16] == 0 {
			if t := from + 33; b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
			if t := from + 31; b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
		}
		if b[from-16] == 0 {
			if t := from - 31; b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
			if t := from - 33; b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
		}
		if b[from+1] == 0 {
			if t := from + 18; b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
			if t := from - 14; b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
		}
		if b[from-1] == 0 {
			if t := from + 14; b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
			if t := from - 18; b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
		}
	}
	// Chariots (B-7).
	for s := base + slotRook; s < base+slotRook+2; s++ {
		from := p.sqOf[s]
		if from == 0 {
			continue
		}
		fd, leg := risky(from)
		for _, d := range orthDirs {
			t := from + d
			for b[t] == 0 {
				add(from, t, fd, leg)
				t += d
			}
			if b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
		}
	}
	// Cannons (B-8): slide to empty points, capture over exactly one screen.
	for s := base + slotCannon; s < base+slotCannon+2; s++ {
		from := p.sqOf[s]
		if from == 0 {
			continue
		}
		fd, leg := risky(from)
		for _, d := range orthDirs {
			t := from + d
			for b[t] == 0 {
				add(from, t, fd, leg)
				t += d
			}
			if b[t] == off {
				continue
			}
			t += d
			for b[t] == 0 {
				t += d
			}
			if b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
		}
	}
	// Soldiers (B-9): forward; sideways too once across the river.
	fwd := uint8(16)
	if us == Black {
		fwd = 240
	}
	for s := base + slotPawn; s < base+slotPawn+5; s++ {
		from := p.sqOf[s]
		if from == 0 {
			continue
		}
		fd, leg := risky(from)
		if t := from + fwd; b[t]&mask == 0 {
			add(from, t, fd, leg)
		}
		if !ownHalf[us][from] {
			if t := from + 1; b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
			if t := from - 1; b[t]&mask == 0 {
				add(from, t, fd, leg)
			}
		}
	}
}

// dirFrom returns the step from cell g towards cell x when they share a rank
// or file, else 0.
func dirFrom(g, x uint8) uint8 {
	switch {
	case x>>4 == g>>4:
		if x > g {
			return 1
		}
		return 255
	case x&15 == g&15:
		if x > g {
			return 16
		}
		return 240
	}
	return 0
}

// exposes reports whether from→to, by a piece other than the general when
// the general on g is not in check, lets them attack g. Only three things can
// change: the line the piece leaves (fd), the line it lands on (td, where it
// may become a cannon screen) and the horse leg it leaves (leg).
func (p *Position) exposes(from, to, g uint8, them Color, fd, td, leg uint8) bool {
	b := &p.board
	v, c := b[from], b[to]
	b[to] = v
	b[from] = 0
	bad := fd != 0 && p.rayAttacked(g, fd, them) ||
		td != 0 && td != fd && p.rayAttacked(g, td, them) ||
		leg != 0 && p.horseThrough(g, leg, them)
	b[from] = v
	b[to] = c
	return bad
}

// rayAttacked reports whether them attacks k along direction d: a chariot or
// (on a file) the general as the first piece, or a cannon as the second.
func (p *Position) rayAttacked(k, d uint8, them Color) bool {
	b := &p.board
	t := k + d
	for b[t] == 0 {
		t += d
	}
	v := b[t]
	if v == off {
		return false
	}
	pc := slotPiece[v]
	if pc == MakePiece(them, Chariot) || pc == MakePiece(them, General) && (d == 16 || d == 240) {
		return true
	}
	t += d
	for b[t] == 0 {
		t += d
	}
	return slotPiece[b[t]] == MakePiece(them, Cannon)
}

// horseThrough reports whether an enemy horse reaches k through the empty
// diagonal neighbour k+leg (B-6).
func (p *Position) horseThrough(k, leg uint8, them Color) bool {
	if p.board[k+leg] != 0 {
		return false
	}
	horse := MakePiece(them, Horse)
	return slotPiece[p.board[k+horseA[leg]]] == horse || slotPiece[p.board[k+horseB[leg]]] == horse
}

// safeAfter reports whether, after from→to, the mover's general on cell k is
// not attacked by them (B-3 flying general, B-10 self-check).
func (p *Position) safeAfter(from, to, k uint8, them Color) bool {
	b := &p.board
	v, c := b[from], b[to]
	b[to] = v
	b[from] = 0
	ok := !p.attacked(k, them)
	b[from] = v
	b[to] = c
	return ok
}

// LegalMoves returns the legal moves of the side to move in a fixed order.
func (p *Position) LegalMoves() []Move {
	return p.AppendLegalMoves(make([]Move, 0, 64))
}

// AppendLegalMoves appends the legal moves to dst and returns the extended
// slice; it allocates nothing when dst has room.
func (p *Position) AppendLegalMoves(dst []Move) []Move {
	var ml moveList
	p.genLegal(&ml)
	for _, m := range ml.m[:ml.n] {
		dst = append(dst, m.public())
	}
	return dst
}

// InCheck reports whether the side to move's general is attacked.
func (p *Position) InCheck() bool {
	if p.board[0] != off {
		return false // the zero Position
	}
	return p.attacked(p.sqOf[16<<p.side+slotGen], p.side^1)
}

// Perft counts the leaf nodes of the legal move tree depth plies deep. The
// last ply is counted from the move list without being played (as
// Fairy-Stockfish does), so depth 1 is len(LegalMoves()).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var ml moveList
	p.genLegal(&ml)
	if depth == 1 {
		return uint64(ml.n)
	}
	var n uint64
	for _, m := range ml.m[:ml.n] {
		from, to := uint8(m), uint8(m>>8)
		u := p.makeMove(from, to)
		n += p.Perft(depth - 1)
		p.unmakeMove(from, to, u)
	}
	return n
}
