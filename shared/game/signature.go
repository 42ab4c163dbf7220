package game

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The scoresheet's signatures (O-3; 000 ch.7 §2 第6条: 对局终了, 在记录纸上
// 记录比赛结果及双方所用时间.犯规情况,双方棋手和书记当场签字认可,为对局结束;
// 书记员 5: 比赛结束邀请运动员签字确认; ch.4 (12): 对局终了后不得拒不签字).
// A game over on the board is over for the record once the red player, the
// black player and the scribe have each signed. A player's refusal is kept
// as such, for the chief arbiter; it counts as that player's line being
// dealt with, since the book lets no one keep the record open by refusing.

// Signatory names a line of the scoresheet.
type Signatory uint8

// The three lines of the scoresheet, and an arbiter's closing of a sheet
// that will not be signed (SignClosed: a player gone, a scribe absent).
const (
	SignRed Signatory = iota
	SignBlack
	SignScribe
	SignClosed
	signatories
)

var signatoryNames = [...]string{"red", "black", "scribe", "closed"}

// String returns the API name: "red", "black", "scribe" or "closed".
func (s Signatory) String() string {
	if int(s) >= len(signatoryNames) {
		return ""
	}
	return signatoryNames[s]
}

// ParseSignatory reads an API name of a signature line.
func ParseSignatory(s string) (Signatory, bool) {
	for i, n := range signatoryNames {
		if n == s {
			return Signatory(i), true
		}
	}
	return 0, false
}

// Limits of one signature, so a game's store item stays small (a drawn
// signature is a few hundred points; 2,000 keep it under 4 KB).
const (
	MaxSignatureName   = 60   // runes
	MaxSignatureStroke = 40   // strokes
	MaxSignaturePoints = 2000 // points over all strokes
	SignatureBox       = 255  // coordinates are 0…SignatureBox in both axes
)

// CodeAlreadySigned refuses a second signature on a line already signed (O-3).
const CodeAlreadySigned = "already_signed"

// CodeNotOver refuses a signature before the game has a result (O-3).
const CodeNotOver = "game_not_over"

// Signature is one line of the scoresheet: who signed it, when (Unix ms),
// by whose device (By, the token's actor), and the drawn signature as
// strokes of points in a SignatureBox square, or Refused when a player
// would not sign (ch.4 (12)).
type Signature struct {
	Line    Signatory
	Name    string
	At      int64
	By      Actor
	Refused bool
	Strokes [][][2]uint8
}

// Sign records one line of the scoresheet at now (O-3). The board's scribe
// or an official takes every line on its device; a player may sign only its
// own line; the scribe's line is an official's. Each line is signed once:
// what is signed is not changed. The game must be over.
func (g *Game) Sign(now int64, by Actor, s Signature) error {
	if g.status != Over {
		return refuse(CodeNotOver, "O-3", "the scoresheet is signed when the game has its result")
	}
	if s.Line >= signatories {
		return refuse(CodeInvalidArgument, "O-3", "line: want red, black, scribe or closed")
	}
	switch {
	case s.Line == SignClosed && !by.Role.rules():
		return refuse(CodeForbidden, "O-3", "only an arbiter closes a scoresheet without its signatures")
	case by.Role == Player && (s.Line == SignScribe || int(s.Line) != int(by.Side)):
		return refuse(CodeForbidden, "O-3", "a player signs only its own line")
	case by.Role != Player && !by.Role.records():
		return refuse(CodeForbidden, "O-3", "%s may not take signatures", by.Role.withArticle())
	}
	if s.Refused && (s.Line == SignScribe || s.Line == SignClosed) {
		return refuse(CodeInvalidArgument, "O-3", "only a player's refusal to sign is recorded (000 ch.4 (12))")
	}
	s.Name = strings.TrimSpace(s.Name)
	if s.Name == "" || utf8.RuneCountInString(s.Name) > MaxSignatureName || !utf8.ValidString(s.Name) {
		return refuse(CodeInvalidArgument, "O-3", "name: the signer's name, 1 to %d characters", MaxSignatureName)
	}
	points := 0
	for _, st := range s.Strokes {
		points += len(st)
	}
	if len(s.Strokes) > MaxSignatureStroke || points > MaxSignaturePoints {
		return refuse(CodeInvalidArgument, "O-3", "strokes: at most %d strokes and %d points", MaxSignatureStroke, MaxSignaturePoints)
	}
	if s.Refused && len(s.Strokes) > 0 {
		return refuse(CodeInvalidArgument, "O-3", "a refusal carries no drawn signature")
	}
	for _, have := range g.signs {
		if have.Line == s.Line {
			return refuse(CodeAlreadySigned, "O-3", "the %s line was signed by %s", s.Line, have.Name)
		}
	}
	s.At, s.By = now, by
	g.signs = append(g.signs, s)
	g.version++
	return nil
}

// Signatures returns the lines signed so far, in the order signed.
func (g *Game) Signatures() []Signature { return append([]Signature(nil), g.signs...) }

// Signed reports whether all three lines of the scoresheet are dealt with
// (signed, or a player's refusal recorded), or an arbiter closed it: the
// game is over for the record.
func (g *Game) Signed() bool {
	var seen [signatories]bool
	for _, s := range g.signs {
		seen[s.Line] = true
	}
	return seen[SignClosed] || seen[SignRed] && seen[SignBlack] && seen[SignScribe]
}

// SVG draws the signature's strokes as an SVG document of polylines, its
// view box their bounds; "" when it has none. Built from numbers only, so it
// carries nothing a client sent as text.
func (s Signature) SVG() string {
	if len(s.Strokes) == 0 {
		return ""
	}
	// The view box is the strokes' bounds with a margin for the pen, so a
	// signature drawn on a wide, low pad fills its line on the sheet.
	x0, y0, x1, y1 := SignatureBox, SignatureBox, 0, 0
	for _, st := range s.Strokes {
		for _, p := range st {
			x0, y0, x1, y1 = min(x0, int(p[0])), min(y0, int(p[1])), max(x1, int(p[0])), max(y1, int(p[1]))
		}
	}
	if x0 > x1 { // strokes without points
		x0, y0, x1, y1 = 0, 0, 0, 0
	}
	const pen = 4
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="` + strconv.Itoa(x0-pen) + " " + strconv.Itoa(y0-pen) + " " + strconv.Itoa(x1-x0+2*pen) + " " + strconv.Itoa(y1-y0+2*pen) +
		`" fill="none" stroke="#000" stroke-width="3" stroke-linecap="round" stroke-linejoin="round">`)
	for _, st := range s.Strokes {
		b.WriteString(`<polyline points="`)
		for i, p := range st {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(int(p[0])) + "," + strconv.Itoa(int(p[1])))
		}
		b.WriteString(`"/>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}
