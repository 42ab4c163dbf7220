package notation

import (
	"fmt"
	"strings"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// ICCS is the coordinate notation of N-4: from square and to square, files a…i
// from red's left, ranks 0…9 from red's side ("h2e2"). Parse also reads upper
// case and a dash between the squares ("H2-E2"); Format writes lower case
// without a dash.
type ICCS struct{}

// Name returns "iccs".
func (ICCS) Name() string { return "iccs" }

// Format writes m as "h2e2".
func (ICCS) Format(p *xiangqi.Position, m xiangqi.Move) (string, error) {
	if !p.IsLegal(m) {
		return "", formatError("iccs", p, m)
	}
	return m.String(), nil
}

// Parse reads "h2e2", "H2E2" or "h2-e2".
func (ICCS) Parse(p *xiangqi.Position, s string) (xiangqi.Move, error) {
	t := strings.ToLower(narrow(compact(s)))
	if len(t) == 5 && t[2] == '-' {
		t = t[:2] + t[3:]
	}
	fail := func(shaped bool, format string, args ...any) (xiangqi.Move, error) {
		return xiangqi.NoMove, &ParseError{Notation: "iccs", Input: s, Reason: fmt.Sprintf(format, args...), shaped: shaped}
	}
	if len(t) != 4 {
		return fail(false, "want two squares such as h2e2")
	}
	from, ok1 := iccsSquare(t[0], t[1])
	to, ok2 := iccsSquare(t[2], t[3])
	if !ok1 || !ok2 {
		return fail(false, "want two squares such as h2e2, files a…i and ranks 0…9")
	}
	b := newBoard(p)
	pc := b.at[from]
	switch {
	case pc == xiangqi.NoPiece:
		return fail(true, "no piece on %v", from)
	case pc.Color() != b.side:
		return fail(true, "the %s on %v is %v's, and %v is to move", kindName(pc.Kind()), from, pc.Color(), b.side)
	}
	m := xiangqi.NewMove(from, to)
	if err := b.check(m); err != nil {
		return xiangqi.NoMove, &ParseError{Notation: "iccs", Input: s, Reason: whyNot(err), Err: err, shaped: true}
	}
	return m, nil
}

func iccsSquare(f, r byte) (xiangqi.Square, bool) {
	if f < 'a' || f > 'i' || r < '0' || r > '9' {
		return xiangqi.NoSquare, false
	}
	return xiangqi.NewSquare(int(f-'a'), int(r-'0')), true
}

// formatError explains why a move cannot be written: every notation writes
// only legal moves, since the Chinese and WXF forms depend on the position.
func formatError(name string, p *xiangqi.Position, m xiangqi.Move) error {
	if err := p.Clone().Play(m); err != nil {
		return fmt.Errorf("%s: format %v: %w", name, m, err)
	}
	return fmt.Errorf("%s: format %v: not a legal move", name, m)
}
