package game

import (
	"fmt"
	"strings"
	"time"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// RecordInfo is what a record says about the game beyond its moves; the
// tournament knows it, the game does not.
type RecordInfo struct {
	Event string
	Site  string
	Round string
	// Date is "YYYY.MM.DD"; empty means the day the game's clock started (UTC).
	Date  string
	Red   string
	Black string
}

// RecordFormats lists the formats Record writes, as GET /record names them.
var RecordFormats = []string{"pgn", "fen", "iccs", "wxf", "chinese", "yz3", "yz4"}

// Record writes the game in format as of now:
//   - pgn: the [Game "Chinese Chess"] tag style with ICCS moves (H2-E2), the
//     result and its reason, and — as 000 ch.7 §2 第6条 asks of the score
//     sheet — the time used by each side and the fouls;
//   - fen: the current position;
//   - iccs, wxf, chinese, yz3, yz4: numbered rounds in that notation, then
//     the result line.
func (g *Game) Record(now int64, format string, info RecordInfo) (string, error) {
	s := g.settled(now)
	switch format {
	case "pgn":
		return s.pgn(now, info)
	case "fen":
		return s.pos.FEN() + "\n", nil
	}
	n, ok := notation.ByName(format)
	if !ok {
		return "", refuse(CodeInvalidArgument, "N-4", "unknown record format %q; use one of %s", format, strings.Join(RecordFormats, ", "))
	}
	start, err := s.positionAt(0)
	if err != nil {
		return "", err
	}
	texts, err := notation.FormatLine(n, start, s.moves)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	s.writeRounds(&b, start, texts)
	b.WriteString(s.resultLine())
	b.WriteByte('\n')
	return b.String(), nil
}

// writeRounds writes one numbered round per line: "1. h2e2 h9g7"; a line
// starting with black reads "1. ... h9g7".
func (g *Game) writeRounds(b *strings.Builder, start *xiangqi.Position, texts []string) {
	round := start.Ply()/2 + 1
	black := start.SideToMove() == xiangqi.Black
	for i, t := range texts {
		switch {
		case i == 0 && black:
			fmt.Fprintf(b, "%d. ... %s", round, t)
		case black:
			fmt.Fprintf(b, " %s", t)
		default:
			fmt.Fprintf(b, "%d. %s", round, t)
		}
		if black || i == len(texts)-1 {
			b.WriteByte('\n')
			round++
		}
		black = !black
	}
}

// resultLine is the API result and reason, or "*" while playing.
func (g *Game) resultLine() string {
	if g.result == result.None {
		if g.status == PendingRuling {
			return "* (pendingRuling)"
		}
		return "*"
	}
	return g.result.String() + " (" + g.reason.String() + ")"
}

// pgnResult maps a result to PGN's four tokens; forfeits keep their winner.
func pgnResult(r result.Result) string {
	switch r {
	case result.RedWins, result.RedByForfeit:
		return "1-0"
	case result.BlackWins, result.BlackByForfeit:
		return "0-1"
	case result.Draw:
		return "1/2-1/2"
	case result.DoubleForfeit:
		return "0-0"
	}
	return "*"
}

func (g *Game) pgn(now int64, info RecordInfo) (string, error) {
	start, err := g.positionAt(0)
	if err != nil {
		return "", err
	}
	date := info.Date
	switch {
	case date == "" && g.startMs == 0:
		date = "????.??.??" // PGN's unknown date: the round has not started
	case date == "":
		date = time.UnixMilli(g.startMs).UTC().Format("2006.01.02")
	}
	var b strings.Builder
	tag := func(name, value string) {
		value = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(value)
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, value)
	}
	tag("Game", "Chinese Chess")
	tag("Event", orQuestion(info.Event))
	tag("Site", orQuestion(info.Site))
	tag("Date", date)
	tag("Round", orQuestion(info.Round))
	tag("Red", orQuestion(info.Red))
	tag("Black", orQuestion(info.Black))
	tag("Result", pgnResult(g.result))
	if g.result != result.None {
		if g.result.String() != pgnResult(g.result) {
			tag("ResultCode", g.result.String()) // a forfeit: "+-", "-+"
		}
		tag("Reason", g.reason.String())
	}
	if g.startFEN != "" {
		tag("FEN", g.startFEN)
	}
	tag("Format", "ICCS")
	if g.clk.Control.Name != "" {
		tag("TimeControl", g.clk.Control.Name)
	}
	// 000 ch.7 §2 第6条: the sheet records the time each side used and the fouls.
	tag("RedTimeUsed", hms(g.clk.Face(clock.Red, now).UsedMs))
	tag("BlackTimeUsed", hms(g.clk.Face(clock.Black, now).UsedMs))
	tag("RedFouls", fmt.Sprint(g.fouls[xiangqi.Red]))
	tag("BlackFouls", fmt.Sprint(g.fouls[xiangqi.Black]))
	// O-3: who signed the sheet and when; a finished game not yet signed by
	// all three says it is awaiting signatures.
	for _, sg := range g.signs {
		what := sg.Name + " " + time.UnixMilli(sg.At).UTC().Format(time.RFC3339)
		if sg.Refused {
			what = "refused: " + what
		}
		tag(signatureTags[sg.Line], what)
	}
	if g.status == Over && !g.Signed() {
		tag("Signatures", "awaiting")
	}
	b.WriteByte('\n')
	texts := make([]string, len(g.moves))
	for i, m := range g.moves {
		texts[i] = strings.ToUpper(m.From().String() + "-" + m.To().String())
	}
	g.writeRounds(&b, start, texts)
	b.WriteString(pgnResult(g.result))
	b.WriteByte('\n')
	return b.String(), nil
}

// signatureTags are the PGN tags of the scoresheet's three lines (O-3).
var signatureTags = [signatories]string{"RedSignature", "BlackSignature", "ScribeSignature", "SheetClosed"}

func orQuestion(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// hms writes a duration in ms as h:mm:ss, rounded down to the second.
func hms(ms int64) string {
	s := ms / 1000
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// MovesIn writes the game's moves after the first since in notation n (a
// game view's moves in the notation a client asks for): a poll for what is
// new pays for the new moves only.
func (g *Game) MovesIn(n notation.Notation, since int) ([]string, error) {
	since = min(max(since, 0), len(g.moves))
	from, err := g.positionAt(since)
	if err != nil {
		return nil, err
	}
	return notation.FormatLine(n, from, g.moves[since:])
}
