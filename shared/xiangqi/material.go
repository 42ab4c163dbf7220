package xiangqi

// HasMatingMaterial reports whether c still counts as able to mate (G-5,
// 有杀): it has any chariot, horse, cannon or soldier. Advisors and elephants
// alone do not count; an event may use a stricter definition.
func (p *Position) HasMatingMaterial(c Color) bool {
	base := uint8(16) << c
	for s := base + slotHorse; s < base+slotEnd; s++ {
		if p.sqOf[s] != 0 {
			return true
		}
	}
	return false
}

// DeadPosition reports whether neither side has mating material (G-4), when
// either side may offer a draw on its own turn. It does not end the game: a
// bare general can still be stalemated, which loses (G-1).
func (p *Position) DeadPosition() bool {
	return !p.HasMatingMaterial(Red) && !p.HasMatingMaterial(Black)
}

// attacksFrom returns the enemy pieces, as a bit per enemy slot (bit 0, the
// general, excluded), that the piece on cell from could legally capture if
// its side were to move (B-3…B-10). It is the "attack" of G-6 chase facts.
func (p *Position) attacksFrom(from uint8) uint16 {
	v := p.board[from]
	if v == 0 || v == off {
		return 0
	}
	us := Color(v>>4 - 1)
	them := us ^ 1
	saved := p.side
	p.side = us
	var set uint16
	tb := uint8(16) << them
	for i := uint8(1); i < slotEnd; i++ {
		to := p.sqOf[tb+i]
		if to == 0 {
			continue
		}
		if p.whyIllegal(NewMove(Square(sq90[from]), Square(sq90[to]))) == nil {
			set |= 1 << i
		}
	}
	p.side = saved
	return set
}
