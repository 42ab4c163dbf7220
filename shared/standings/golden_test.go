package standings_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// The worked examples live in testdata/NAME.input (the event, with the
// working by hand in comments) and testdata/NAME.golden (the table as the
// rules give it). The .golden files are written by hand from the rules text.
//
// Input lines:
//
//	system S | rounds N | scoring NAME | chain C1 C2 … | playoff N | after N | boards N | byBoardPoints
//	player ID NUMBER NAME
//	game ROUND RED BLACK RESULT [REDFOULS BLACKFOULS]
//	bye ROUND ID
//	withdraw ID AFTERROUND
//	team ID NUMBER NAME
//	match ROUND FIRST SECOND RESULT… (board results from red's side; T-6 colours)
//	matchfouls ROUND FIRST SECOND BOARD FIRSTFOULS SECONDFOULS
//	teambye ROUND ID
//	members TEAM ID…  (R-9: team from the individual table's places)
//	cross             (also render the crosstable)
type fixture struct {
	ev      standings.Event
	tev     standings.TeamEvent
	after   int
	members map[string][]string
	teams   bool
	places  bool
	cross   bool
}

func readFixture(t *testing.T, path string) fixture {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var fx fixture
	fx.members = map[string][]string{}
	sc := bufio.NewScanner(f)
	line := 0
	atoi := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		return n
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.Index(text, "#"); i >= 0 {
			text = text[:i]
		}
		w := strings.Fields(text)
		if len(w) == 0 {
			continue
		}
		switch w[0] {
		case "system":
			fx.ev.System, fx.tev.System = w[1], w[1]
		case "rounds":
			fx.ev.Rounds, fx.tev.Rounds = atoi(w[1]), atoi(w[1])
		case "scoring":
			s, err := standings.ParseScoring(w[1])
			if err != nil {
				t.Fatal(err)
			}
			fx.ev.Scoring, fx.tev.Scoring = s, s
		case "chain":
			c, err := standings.ParseChain(w[1:])
			if err != nil {
				c, err = standings.ParseTeamChain(w[1:])
			}
			if err != nil {
				t.Fatal(err)
			}
			fx.ev.Chain, fx.tev.Chain = c, c
		case "playoff":
			fx.ev.PlayoffPlaces, fx.tev.PlayoffPlaces = atoi(w[1]), atoi(w[1])
		case "after":
			fx.after = atoi(w[1])
		case "boards":
			fx.tev.Boards = atoi(w[1])
		case "byBoardPoints":
			fx.tev.ByBoardPoints = true
		case "cross":
			fx.cross = true
		case "player":
			fx.ev.Players = append(fx.ev.Players, standings.Player{ID: w[1], Number: atoi(w[2]), Name: strings.Join(w[3:], " ")})
		case "game":
			g := standings.Game{Round: atoi(w[1]), Red: w[2], Black: w[3], Result: readResult(t, w[4])}
			if len(w) > 5 {
				g.RedFouls, g.BlackFouls = atoi(w[5]), atoi(w[6])
			}
			fx.ev.Games = append(fx.ev.Games, g)
		case "bye":
			fx.ev.Byes = append(fx.ev.Byes, standings.Bye{Round: atoi(w[1]), Player: w[2]})
		case "withdraw":
			fx.ev.Withdrawals = append(fx.ev.Withdrawals, standings.Withdrawal{Player: w[1], AfterRound: atoi(w[2])})
		case "team":
			fx.teams = true
			fx.tev.Teams = append(fx.tev.Teams, standings.Team{ID: w[1], Number: atoi(w[2]), Name: strings.Join(w[3:], " ")})
		case "match":
			m := standings.Match{Round: atoi(w[1]), First: w[2], Second: w[3]}
			for _, r := range w[4:] {
				m.Boards = append(m.Boards, standings.BoardResult{Result: readResult(t, r)})
			}
			fx.tev.Matches = append(fx.tev.Matches, m)
		case "matchfouls":
			r, first, second, board := atoi(w[1]), w[2], w[3], atoi(w[4])
			found := false
			for i := range fx.tev.Matches {
				m := &fx.tev.Matches[i]
				if m.Round == r && m.First == first && m.Second == second {
					m.Boards[board-1].FirstFouls, m.Boards[board-1].SecondFouls = atoi(w[5]), atoi(w[6])
					found = true
				}
			}
			if !found {
				t.Fatalf("%s:%d: no such match", path, line)
			}
		case "teambye":
			fx.tev.Byes = append(fx.tev.Byes, standings.TeamBye{Round: atoi(w[1]), Team: w[2]})
		case "members":
			fx.places = true
			fx.members[w[1]] = w[2:]
		default:
			t.Fatalf("%s:%d: unknown line %q", path, line, text)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return fx
}

func flags(shared, playoff bool) string {
	s := ""
	if shared {
		s += "="
	}
	if playoff {
		s += "!"
	}
	return s
}

func tiebreaks(tbs []standings.Tiebreak) string {
	var b strings.Builder
	for i, tb := range tbs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(tb.String())
	}
	return b.String()
}

func header(c standings.Chain) string { return "chain " + strings.Join(c.Strings(), " ") }

// renderTable prints one row a line: place (= shared, ! play-off), id,
// points | tie-break values in chain order | games wins draws losses
// black-games black-wins fouls byes forfeits [withdrawn].
func renderTable(tab standings.Table) []string {
	out := []string{fmt.Sprintf("round %d", tab.Round), header(tab.Chain), "byevalue " + tab.ByeValue.String()}
	if len(tab.Annulled) > 0 {
		out = append(out, "annulled "+strings.Join(tab.Annulled, " "))
	}
	for _, r := range tab.Rows {
		s := fmt.Sprintf("%d%s %s %d | %s | g%d w%d d%d l%d b%d bw%d f%d bye%d ff%d",
			r.Rank, flags(r.Shared, r.Playoff), r.PlayerID, r.Points, tiebreaks(r.Tiebreaks),
			r.Games, r.Wins, r.Draws, r.Losses, r.BlackGames, r.BlackWins, r.Fouls, r.Byes, r.Forfeits)
		if r.Withdrawn {
			s += " withdrawn"
		}
		out = append(out, s)
	}
	return out
}

// renderTeams prints place, id, match points, board points | tie-breaks |
// matches won-drawn-lost, board games won-drawn-lost, black games, black
// wins, fouls, byes.
func renderTeams(tab standings.TeamTable) []string {
	out := []string{fmt.Sprintf("round %d", tab.Round), header(tab.Chain), "byevalue " + tab.ByeValue.String()}
	for _, r := range tab.Rows {
		out = append(out, fmt.Sprintf("%d%s %s %d %d | %s | m%d %d-%d-%d g%d %d-%d-%d b%d bw%d f%d bye%d",
			r.Rank, flags(r.Shared, r.Playoff), r.TeamID, r.MatchPoints, r.BoardPoints, tiebreaks(r.Tiebreaks),
			r.Matches, r.MatchWins, r.MatchDraws, r.MatchLosses, r.BoardGames, r.BoardWins, r.BoardDraws, r.BoardLosses,
			r.BlackGames, r.BlackWins, r.Fouls, r.Byes))
	}
	return out
}

// renderCross prints "cross ID POINTS" then a cell per game: round, colour
// (r/b), opponent, ':', result, points, and the mark if any.
func renderCross(ct standings.Crosstable) []string {
	var out []string
	for _, r := range ct.Rows {
		s := fmt.Sprintf("cross %s %d", r.PlayerID, r.Points)
		for _, c := range r.Cells {
			col := "r"
			if c.Color == xiangqi.Black {
				col = "b"
			}
			switch c.Mark {
			case standings.MarkBye, standings.MarkRest:
				s += fmt.Sprintf(" %d:%s=%d", c.Round, c.Mark, c.Points)
				continue
			}
			s += fmt.Sprintf(" %d%s%s:%s=%d", c.Round, col, c.OpponentID, c.Result, c.Points)
			if c.Mark != standings.MarkNone {
				s += "(" + string(c.Mark) + ")"
			}
		}
		out = append(out, s)
	}
	return out
}

func readWant(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func TestWorkedExamples(t *testing.T) {
	files, err := filepath.Glob("testdata/*.input")
	if err != nil || len(files) == 0 {
		t.Fatalf("no worked examples: %v", err)
	}
	for _, in := range files {
		name := strings.TrimSuffix(filepath.Base(in), ".input")
		t.Run(name, func(t *testing.T) {
			fx := readFixture(t, in)
			var got []string
			switch {
			case fx.teams && fx.places:
				ind, err := standings.Standings(fx.ev, fx.after)
				if err != nil {
					t.Fatal(err)
				}
				got = renderTable(ind)
				tt, err := standings.PlacesStandings(ind, fx.tev.Teams, fx.members, 0, fx.ev.PlayoffPlaces)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, "teams")
				got = append(got, renderTeams(tt)...)
			case fx.teams:
				tt, err := standings.TeamStandings(fx.tev, fx.after)
				if err != nil {
					t.Fatal(err)
				}
				got = renderTeams(tt)
			default:
				tab, err := standings.Standings(fx.ev, fx.after)
				if err != nil {
					t.Fatal(err)
				}
				got = renderTable(tab)
			}
			if fx.cross {
				ct, err := standings.CrossTable(fx.ev, fx.after)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, renderCross(ct)...)
			}
			want := readWant(t, strings.TrimSuffix(in, ".input")+".golden")
			for i := 0; i < max(len(got), len(want)); i++ {
				var g, w string
				if i < len(got) {
					g = got[i]
				}
				if i < len(want) {
					w = want[i]
				}
				if g != w {
					t.Errorf("line %d:\n got  %q\n want %q", i+1, g, w)
				}
			}
		})
	}
}

// readResult reads a fixture's result: an API result, or `""` for a game
// still being played.
func readResult(t *testing.T, s string) result.Result {
	t.Helper()
	if s == `""` {
		return result.None
	}
	r, err := result.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
