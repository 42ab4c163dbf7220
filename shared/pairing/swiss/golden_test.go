package swiss_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// parseInput reads the testdata format:
//
//	rounds 7            total rounds
//	round 3             round to pair
//	first near|topbottom|halves
//	draw 1              what an unfinished game counts (P-12)
//	avoidclubs          keep club mates apart (P-5)
//	forbid 3 8          a forbidden pair
//	p 5 score 4 club A status paused : R2 B7d bye - R3*
//
// History tokens: R<n>/B<n> red/black against n, "bye", "-" absent; the
// suffixes d/u mark a float down/up and * an unfinished game.
func parseInput(text string) (swiss.Input, error) {
	in := swiss.Input{DrawPoints: 1}
	for ln, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		bad := fmt.Errorf("line %d: %q", ln+1, line)
		atoi := func(s string) int {
			n, err := strconv.Atoi(s)
			if err != nil {
				panic(bad)
			}
			return n
		}
		switch f[0] {
		case "rounds":
			in.Rounds = atoi(f[1])
		case "round":
			in.Round = atoi(f[1])
		case "draw":
			in.DrawPoints = atoi(f[1])
		case "avoidclubs":
			in.AvoidSameClub = true
		case "forbid":
			in.Forbidden = append(in.Forbidden, [2]int{atoi(f[1]), atoi(f[2])})
		case "first":
			in.First = map[string]swiss.FirstRound{"near": swiss.NearNumber, "topbottom": swiss.TopBottom, "halves": swiss.Halves}[f[1]]
		case "p":
			p := swiss.Player{Number: atoi(f[1])}
			i := 2
			for ; i < len(f) && f[i] != ":"; i += 2 {
				switch f[i] {
				case "score":
					p.Score = atoi(f[i+1])
				case "club":
					p.Club = f[i+1]
				case "rating":
					p.Rating = atoi(f[i+1])
				case "status":
					p.Status = map[string]swiss.Status{"active": swiss.Active, "withdrawn": swiss.Withdrawn, "paused": swiss.Paused, "notjoined": swiss.NotJoined}[f[i+1]]
				default:
					return in, bad
				}
			}
			for _, tok := range f[min(i+1, len(f)):] {
				var r swiss.RoundRecord
				for strings.ContainsAny(tok[len(tok)-1:], "du*") && tok != "-" {
					switch tok[len(tok)-1] {
					case 'd':
						r.Float = swiss.Down
					case 'u':
						r.Float = swiss.Up
					case '*':
						r.Pending = true
					}
					tok = tok[:len(tok)-1]
				}
				switch {
				case tok == "bye":
					r.Side = swiss.Bye
				case tok == "-":
					r.Side = swiss.Absent
				case tok[0] == 'R':
					r.Side, r.Opponent = swiss.Red, atoi(tok[1:])
				case tok[0] == 'B':
					r.Side, r.Opponent = swiss.Black, atoi(tok[1:])
				default:
					return in, bad
				}
				p.History = append(p.History, r)
			}
			in.Players = append(in.Players, p)
		default:
			return in, bad
		}
	}
	return in, nil
}

// formatRound writes a round the way an arbiter reads it: one line per
// board with the explanation, then the bye.
func formatRound(r swiss.Round) string {
	var b strings.Builder
	for _, p := range r.Boards {
		w := p.Why
		sec := ""
		if s := w.Colour.Section(); s > 0 {
			sec = fmt.Sprintf(" §4(%d)", s)
		}
		fmt.Fprintf(&b, "table %d: red %d black %d | group %d picker %d %s(%s) | %s %s rank %d met %d blocked %d | colour %s%s %s",
			p.Table, p.Red, p.Black, w.Group, w.Picker, w.PickedBy, w.PickedBy.Label(),
			w.Reason, w.Reason.Label(), w.Rank, w.Met, w.Blocked, w.Colour, sec, w.Colour.Label())
		if w.Avoided > 0 {
			fmt.Fprintf(&b, " | avoided %d", w.Avoided)
		}
		if p.RedFloat != swiss.NoFloat || p.BlackFloat != swiss.NoFloat {
			fmt.Fprintf(&b, " | float red %s black %s", floatName(p.RedFloat), floatName(p.BlackFloat))
		}
		b.WriteString("\n")
	}
	if r.Bye != 0 {
		fmt.Fprintf(&b, "bye %d: %s\n", r.Bye, r.ByeWhy)
	}
	return b.String()
}

func floatName(f swiss.Float) string {
	switch f {
	case swiss.Down:
		return "down"
	case swiss.Up:
		return "up"
	}
	return "none"
}

// TestGolden pairs the worked examples in testdata (each *.input with its
// expected *.golden, checked by hand against appendix 3) and runs the
// checker on each.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.input")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".input")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in, err := parseInput(string(raw))
			if err != nil {
				t.Fatal(err)
			}
			out, err := swiss.Pair(in)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range checker.Check(in, out) {
				t.Errorf("checker: %v", v)
			}
			got := formatRound(out)
			golden := strings.TrimSuffix(file, ".input") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
