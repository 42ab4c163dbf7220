package game

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// The binary form packs a game into one small store item: moves two bytes
// each, times as varint deltas, everything else a few bytes. The position is
// not stored; decoding replays the moves.
// Version 2 adds to each log entry who acted (Actor.ID) and what a result
// correction replaced; version 3 adds the O-2 penalty options after the
// rules (read as off before); version 4 adds an adjourned game's sealed
// move after the log (C-7); version 5 the scoresheet's signatures after
// that (O-3). Versions 1 to 4 still decode.
const formatVersion = 5

// ErrCorrupt is wrapped by every UnmarshalBinary error.
var ErrCorrupt = errors.New("game: corrupt encoding")

// MarshalBinary packs the game (encoding.BinaryMarshaler).
func (g *Game) MarshalBinary() ([]byte, error) {
	return g.AppendBinary(make([]byte, 0, 64+3*len(g.moves)+64*len(g.log)))
}

// AppendBinary appends the packed game to b (encoding.BinaryAppender).
func (g *Game) AppendBinary(b []byte) ([]byte, error) {
	w := writer{b: b}
	w.byte(formatVersion)
	w.uvarint(g.version)
	w.string(g.startFEN)
	w.varint(g.startMs)
	w.uvarint(uint64(g.lateLimitMs))
	for c := range g.arrived {
		w.bool(g.arrived[c])
		w.varint(g.arrivedAt[c] - g.startMs)
	}

	w.byte(byte(g.rules.Repetition))
	w.byte(byte(g.rules.IllegalMoves))
	w.varint(int64(g.rules.DrawOfferLimit))
	w.uvarint(uint64(g.rules.NoCaptureMoves))
	w.bool(g.rules.DeadPositionDraw)
	w.byte(b2u(g.rules.OfferLoses) | b2u(g.rules.DroppedPieceLoses)<<1)

	c := g.clk.Control
	w.string(c.Name)
	w.uvarint(uint64(len(c.Periods)))
	for _, p := range c.Periods {
		w.uvarint(uint64(p.Moves))
		w.uvarint(uint64(p.Ms))
	}
	w.uvarint(uint64(c.IncrementMs))
	for _, f := range g.clk.Faces {
		w.varint(f.RemainingMs)
		w.uvarint(uint64(f.UsedMs))
		w.uvarint(uint64(f.Moves))
		w.uvarint(uint64(f.Period))
		w.uvarint(uint64(f.PeriodMoves))
	}
	w.byte(byte(g.clk.Running + 1))
	w.varint(g.clk.Since - g.startMs)

	w.uvarint(uint64(len(g.moves)))
	for _, m := range g.moves {
		w.b = binary.LittleEndian.AppendUint16(w.b, uint16(m))
	}
	prev := g.startMs
	for _, t := range g.times {
		w.varint(t - prev)
		prev = t
	}

	w.bool(g.awaitingPress)
	w.byte(byte(g.status))
	w.byte(byte(g.result))
	w.byte(byte(g.reason))
	w.varint(g.endedAt - g.startMs)

	w.bool(g.offer.pending)
	w.byte(byte(g.offer.by))
	w.uvarint(uint64(g.offer.ply))
	w.uvarint(uint64(g.offer.made))
	w.byte(byte(g.offer.last + 1))
	w.uvarint(uint64(g.fouls[0]))
	w.uvarint(uint64(g.fouls[1]))
	w.byte(byte(g.rulingAskedBy + 1))

	w.uvarint(uint64(len(g.log)))
	for _, e := range g.log {
		r := e.Ruling
		w.varint(e.At - g.startMs)
		w.byte(byte(e.By.Role))
		w.byte(byte(e.By.Side))
		w.byte(byte(r.Kind))
		w.byte(byte(r.Side))
		w.byte(byte(r.Votes[0]) | byte(r.Votes[1])<<1 | byte(r.Votes[2])<<2 | b2u(r.Late[0])<<3 | b2u(r.Late[1])<<4)
		w.byte(byte(r.Penalty))
		w.varint(r.RemainingMs)
		w.byte(byte(r.Result))
		w.byte(byte(r.Reason))
		w.string(r.Note)
		w.byte(byte(r.Before))
		w.byte(byte(r.BeforeReason))
		w.string(e.By.ID)
	}
	w.bool(g.seal.on)
	if g.seal.on {
		w.b = binary.LittleEndian.AppendUint16(w.b, uint16(g.seal.move))
		w.byte(byte(g.seal.by))
		w.varint(g.seal.at - g.startMs)
	}
	w.uvarint(uint64(len(g.signs)))
	for _, sg := range g.signs {
		w.byte(byte(sg.Line) | b2u(sg.Refused)<<2)
		w.string(sg.Name)
		w.varint(sg.At - g.startMs)
		w.byte(byte(sg.By.Role))
		w.byte(byte(sg.By.Side))
		w.string(sg.By.ID)
		w.uvarint(uint64(len(sg.Strokes)))
		for _, st := range sg.Strokes {
			w.uvarint(uint64(len(st)))
			for _, p := range st {
				w.byte(p[0])
				w.byte(p[1])
			}
		}
	}
	return w.b, nil
}

// UnmarshalBinary restores a game packed by MarshalBinary
// (encoding.BinaryUnmarshaler). Errors wrap ErrCorrupt.
func (g *Game) UnmarshalBinary(data []byte) error {
	d, err := decode(data)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	*g = *d
	return nil
}

// Decode is UnmarshalBinary into a new game.
func Decode(data []byte) (*Game, error) {
	g := new(Game)
	if err := g.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return g, nil
}

func decode(data []byte) (*Game, error) {
	r := reader{b: data}
	version := r.byte()
	if version < 1 || version > formatVersion {
		return nil, fmt.Errorf("format version %d", version)
	}
	g := &Game{}
	g.version = r.uvarint()
	g.startFEN = r.string()
	g.startMs = r.varint()
	g.lateLimitMs = int64(r.small(clock.MaxPeriodMs))
	for c := range g.arrived {
		g.arrived[c] = r.bool()
		g.arrivedAt[c] = r.varint() + g.startMs
	}

	g.rules.Repetition = RepetitionRule(r.byte())
	g.rules.IllegalMoves = IllegalMoveRule(r.byte())
	g.rules.DrawOfferLimit = int(r.varint())
	g.rules.NoCaptureMoves = int(r.small(MaxNoCaptureMoves))
	g.rules.DeadPositionDraw = r.bool()
	if version >= 3 {
		p := r.byte()
		if p > 3 {
			r.fail("penalty options")
		}
		g.rules.OfferLoses, g.rules.DroppedPieceLoses = p&1 != 0, p&2 != 0
	}
	if err := g.rules.Validate(); err != nil && r.err == nil {
		r.err = err
	}

	var c clock.Control
	c.Name = r.string()
	n := r.small(clock.MaxPeriods)
	for range n {
		c.Periods = append(c.Periods, clock.Period{Moves: int(r.small(clock.MaxMoves)), Ms: int64(r.small(clock.MaxPeriodMs))})
	}
	c.IncrementMs = int64(r.small(clock.MaxIncrement))
	if err := c.Validate(); err != nil && r.err == nil {
		r.err = err
	}
	g.clk = clock.State{Control: c}
	for i := range g.clk.Faces {
		f := &g.clk.Faces[i]
		f.RemainingMs = r.varint()
		f.UsedMs = int64(r.uvarint())
		f.Moves = int(r.small(1 << 20))
		f.Period = int(r.small(1 << 20))
		f.PeriodMoves = int(r.small(1 << 20))
	}
	g.clk.Running = clock.Side(r.byte()) - 1
	if g.clk.Running < clock.None || g.clk.Running > clock.Black {
		r.fail("clock side")
	}
	g.clk.Since = r.varint() + g.startMs

	nm := int(r.small(uint64(len(data))))
	if r.err == nil {
		g.moves = make([]xiangqi.Move, nm)
		g.times = make([]int64, nm)
	}
	for i := 0; i < nm && r.err == nil; i++ {
		g.moves[i] = xiangqi.Move(r.uint16())
	}
	prev := g.startMs
	for i := 0; i < nm && r.err == nil; i++ {
		prev += r.varint()
		g.times[i] = prev
	}

	g.awaitingPress = r.bool()
	g.status = Status(r.byte())
	g.result = result.Result(r.byte())
	g.reason = Reason(r.byte())
	g.endedAt = r.varint() + g.startMs
	if g.status > Over || g.result.String() == "" && g.result != result.None || g.reason.String() == "" && g.reason != NoReason {
		r.fail("result")
	}

	g.offer.pending = r.bool()
	g.offer.by = r.color()
	g.offer.ply = int(r.small(uint64(nm)))
	g.offer.made = int(r.small(1 << 20))
	g.offer.last = int8(r.byte()) - 1
	g.fouls[0] = int(r.small(1 << 20))
	g.fouls[1] = int(r.small(1 << 20))
	g.rulingAskedBy = int8(r.byte()) - 1
	if g.offer.last < -1 || g.offer.last > 1 || g.rulingAskedBy < -1 || g.rulingAskedBy > 1 {
		r.fail("side")
	}

	nl := int(r.small(uint64(len(data))))
	for i := 0; i < nl && r.err == nil; i++ {
		var e LogEntry
		e.At = r.varint() + g.startMs
		e.By.Role = Role(r.byte())
		e.By.Side = r.color()
		e.Ruling.Kind = RulingKind(r.byte())
		e.Ruling.Side = r.color()
		bits := r.byte()
		for j := range e.Ruling.Votes {
			e.Ruling.Votes[j] = xiangqi.Color(bits >> j & 1)
		}
		e.Ruling.Late = [2]bool{bits&8 != 0, bits&16 != 0}
		e.Ruling.Penalty = PenaltyKind(r.byte())
		e.Ruling.RemainingMs = r.varint()
		e.Ruling.Result = result.Result(r.byte())
		e.Ruling.Reason = Reason(r.byte())
		e.Ruling.Note = r.string()
		if version >= 2 {
			e.Ruling.Before = result.Result(r.byte())
			e.Ruling.BeforeReason = Reason(r.byte())
			e.By.ID = r.string()
		}
		g.log = append(g.log, e)
	}
	if version >= 4 && r.bool() {
		g.seal = sealed{on: true, move: xiangqi.Move(r.uint16()), by: r.color(), at: r.varint() + g.startMs}
	}
	if version >= 5 {
		ns := int(r.small(uint64(signatories)))
		for i := 0; i < ns && r.err == nil; i++ {
			var sg Signature
			bits := r.byte()
			sg.Line, sg.Refused = Signatory(bits&3), bits&4 != 0
			if sg.Line >= signatories || bits > 7 {
				r.fail("signature line")
			}
			sg.Name = r.string()
			sg.At = r.varint() + g.startMs
			sg.By.Role = Role(r.byte())
			sg.By.Side = r.color()
			sg.By.ID = r.string()
			nst := int(r.small(MaxSignatureStroke))
			for j := 0; j < nst && r.err == nil; j++ {
				np := int(r.small(MaxSignaturePoints))
				st := make([][2]uint8, 0, np)
				for k := 0; k < np && r.err == nil; k++ {
					st = append(st, [2]uint8{r.byte(), r.byte()})
				}
				sg.Strokes = append(sg.Strokes, st)
			}
			g.signs = append(g.signs, sg)
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("trailing bytes")
	}
	if r.err != nil {
		return nil, r.err
	}
	if err := g.replay(); err != nil {
		return nil, err
	}
	if g.seal.on && (g.seal.by != g.pos.SideToMove() || !slices.Contains(g.pos.LegalMoves(), g.seal.move)) {
		return nil, errors.New("the sealed move is not a legal move of the side to move")
	}
	return g, nil
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

type writer struct{ b []byte }

func (w *writer) byte(v byte)      { w.b = append(w.b, v) }
func (w *writer) bool(v bool)      { w.b = append(w.b, b2u(v)) }
func (w *writer) uvarint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *writer) varint(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *writer) string(s string)  { w.uvarint(uint64(len(s))); w.b = append(w.b, s...) }

// reader reads what writer wrote; the first error sticks and later reads
// return zeros, so decode checks r.err once per section.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = errors.New("bad " + what)
	}
	r.b = nil
}

func (r *reader) byte() byte {
	if len(r.b) < 1 {
		r.fail("length")
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) bool() bool {
	switch r.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	r.fail("bool")
	return false
}

func (r *reader) color() xiangqi.Color {
	v := r.byte()
	if v > 1 {
		r.fail("colour")
		return 0
	}
	return xiangqi.Color(v)
}

func (r *reader) uint16() uint16 {
	if len(r.b) < 2 {
		r.fail("length")
		return 0
	}
	v := binary.LittleEndian.Uint16(r.b)
	r.b = r.b[2:]
	return v
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// small reads a uvarint that must not exceed limit.
func (r *reader) small(limit uint64) uint64 {
	v := r.uvarint()
	if v > limit {
		r.fail("count")
		return 0
	}
	return v
}

func (r *reader) string() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail("string length")
	}
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}
