package standings_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
)

func TestParseScoring_K1(t *testing.T) {
	tests := []struct {
		name                          string
		win, loss, drawRed, drawBlack int
	}{
		{"", 2, 0, 1, 1},      // K-1 default
		{"2-1-0", 2, 0, 1, 1}, // K-1 default by name
		{"3-1-0", 3, 0, 1, 1}, // seed 001 §13.3 胜3 负0 和1
		{"3-0-redblack", 3, 0, 1, 2},
		{"4-2-0", 4, 0, 2, 2},   // 001 §13.3 "…等": any points
		{"3-1/2-0", 3, 0, 1, 2}, // the colour variant by points
		{"1-0-0", 1, 0, 0, 0},   // a draw worth nothing
		{"5-2/3-1", 5, 1, 2, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := standings.ParseScoring(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if s.Win != tt.win || s.Loss != tt.loss || s.DrawRed != tt.drawRed || s.DrawBlack != tt.drawBlack {
				t.Errorf("got %+v, want win %d loss %d draw %d/%d", s, tt.win, tt.loss, tt.drawRed, tt.drawBlack)
			}
		})
	}
	for _, bad := range []string{"1-2-0", "0-0-0", "2-1-3", "2-0-1", "a-b-c", "3-1", "3-1/2", "101-1-0", "3-01-0", "-1-0-0", "3-1/-0", "3-1/2/2-0", " 2-1-0"} {
		if _, err := standings.ParseScoring(bad); !errors.Is(err, standings.ErrUnknownScoring) || !strings.Contains(err.Error(), bad) {
			t.Errorf("%q: got %v, want ErrUnknownScoring naming it", bad, err)
		}
	}
}

func TestParseChain_NamesTheUnknownCriterion(t *testing.T) {
	c, err := standings.ParseChain([]string{"points", "opponentScore", "cumulativeCut3", "previousRound"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Strings(), ","); got != "points,opponentScore,cumulativeCut3,previousRound" {
		t.Errorf("got %s", got)
	}
	for _, bad := range [][]string{
		{"points", "buchholz"},
		{"points", "cumulativeCut0"},
		{"points", "cumulativeCut"},
		{"points", "boardWins"}, // a team criterion
		{"points", "wins", "wins"},
		{},
	} {
		_, err := standings.ParseChain(bad)
		if !errors.Is(err, standings.ErrUnknownCriterion) {
			t.Errorf("%v: got %v, want ErrUnknownCriterion", bad, err)
			continue
		}
		if len(bad) > 1 && !strings.Contains(err.Error(), bad[len(bad)-1]) {
			t.Errorf("%v: error %q does not name %q", bad, err, bad[len(bad)-1])
		}
	}
	if _, err := standings.ParseTeamChain([]string{"matchPoints", "smallPoints"}); !errors.Is(err, standings.ErrUnknownCriterion) {
		t.Errorf("team chain with smallPoints: got %v", err)
	}
}

func TestDefaultChain_SpecOrder(t *testing.T) {
	tests := []struct{ system, want string }{
		// R-1, seed 001 §14.1
		{"roundRobin", "points smallPoints wins directEncounter fouls blackGames blackInMutualGame blackWins"},
		{"groups", "points smallPoints wins directEncounter fouls blackGames blackInMutualGame blackWins"},
		//
		{"doubleRoundRobin", "points smallPoints wins directEncounter fouls blackWins firstCyclePoints firstCycleSmallPoints firstCycleWins firstCycleDirectEncounter firstCycleFouls firstCycleBlackGames firstCycleBlackInMutualGame firstCycleBlackWins"},
		//
		{"matchRoundRobin", "matchPoints gamePoints wins directEncounter fouls blackWins"},
		// R-4a for every Swiss-based system
		{"swiss", "points opponentScore wins fouls blackGames blackWins previousRound"},
		{"swissKnockout", "points opponentScore wins fouls blackGames blackWins previousRound"},
		{"swissElimination", "points opponentScore wins fouls blackGames blackWins previousRound"},
		{"swissNPlusOne", "points opponentScore wins fouls blackGames blackWins previousRound"},
		// R-4b
		{"swissCumulative", "points cumulative wins fouls blackGames blackWins cumulativeCuts"},
		{"knockout", "points wins"},
		{"doubleElimination", "points wins"},
	}
	for _, tt := range tests {
		c, err := standings.DefaultChain(tt.system)
		if err != nil {
			t.Fatalf("%s: %v", tt.system, err)
		}
		if got := strings.Join(c.Strings(), " "); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.system, got, tt.want)
		}
	}
	if _, err := standings.DefaultChain("ladder"); !errors.Is(err, standings.ErrUnknownSystem) {
		t.Errorf("got %v, want ErrUnknownSystem", err)
	}
	team := []struct {
		system string
		board  bool
		want   string
	}{
		{"roundRobin", false, "matchPoints boardPoints matchWins boardWins directEncounter fouls blackGames blackWins"},
		{"doubleRoundRobin", false, "matchPoints boardPoints matchWins boardWins directEncounter fouls"},
		{"swiss", false, "matchPoints opponentScore boardPoints matchWins boardWins fouls previousRound"},
		{"swiss", true, "boardPoints matchPoints opponentScore matchWins boardWins fouls previousRound"},
	}
	for _, tt := range team {
		c, err := standings.DefaultTeamChain(tt.system, tt.board)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(c.Strings(), " "); got != tt.want {
			t.Errorf("team %s/%v: got %s, want %s", tt.system, tt.board, got, tt.want)
		}
	}
	if got := strings.Join(standings.PlacesChain().Strings(), " "); got != "placeSum bestPlace secondBestPlace fouls" {
		t.Errorf("R-9: got %s", got)
	}
}

func TestTiebreak_Halves(t *testing.T) {
	for _, tt := range []struct {
		tb   standings.Tiebreak
		want string
		f    float64
	}{
		{standings.Tiebreak{Num: 29, Denom: 2}, "14.5", 14.5},
		{standings.Tiebreak{Num: 28, Denom: 2}, "14", 14},
		{standings.Tiebreak{Num: 1, Denom: 2}, "0.5", 0.5},
		{standings.Tiebreak{Num: 7, Denom: 1}, "7", 7},
	} {
		if got := tt.tb.String(); got != tt.want {
			t.Errorf("%+v: got %s, want %s", tt.tb, got, tt.want)
		}
		if got := tt.tb.Float64(); got != tt.f {
			t.Errorf("%+v: got %v, want %v", tt.tb, got, tt.f)
		}
	}
}

// smallSwiss: 4 players, 2 rounds.
// R1 A-B 1-0, C-D "+-" (D did not turn up: a forfeit, flagged).
// R2 A-C 1/2-1/2 with a foul by C, B-D "" (still playing: ignored).
func smallSwiss() standings.Event {
	return standings.Event{
		System: standings.SystemSwiss, Rounds: 5,
		Players: []standings.Player{{ID: "a", Number: 1}, {ID: "b", Number: 2}, {ID: "c", Number: 3}, {ID: "d", Number: 4}},
		Games: []standings.Game{
			{Round: 1, Red: "a", Black: "b", Result: result.RedWins},
			{Round: 1, Red: "c", Black: "d", Result: result.RedByForfeit},
			{Round: 2, Red: "a", Black: "c", Result: result.Draw, BlackFouls: 1},
			{Round: 2, Red: "d", Black: "b", Result: result.None},
		},
	}
}

func ids(tab standings.Table) string {
	var s []string
	for _, r := range tab.Rows {
		s = append(s, r.PlayerID)
	}
	return strings.Join(s, " ")
}

func TestStandings_RoundViewAndPendingGames(t *testing.T) {
	ev := smallSwiss()
	// After R1: A 2 (对手分 B 0), C 2 (对手分 D 0); wins 1 each; fouls 0;
	// black games 0 each; black wins 0; previous round: all first → A and C
	// share first, and the title goes to a play-off (R-10 default). B, D 0:
	// 对手分 2 each, no wins, no fouls, black games 1 each → shared 3rd.
	r1, err := standings.Standings(ev, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Round != 1 || ids(r1) != "a c b d" {
		t.Fatalf("after R1: round %d order %s", r1.Round, ids(r1))
	}
	for i, want := range []struct {
		rank            int
		shared, playoff bool
	}{{1, true, true}, {1, true, true}, {3, true, false}, {3, true, false}} {
		r := r1.Rows[i]
		if r.Rank != want.rank || r.Shared != want.shared || r.Playoff != want.playoff {
			t.Errorf("after R1 row %s: rank %d shared %v playoff %v, want %+v", r.PlayerID, r.Rank, r.Shared, r.Playoff, want)
		}
	}
	if c := r1.Rows[1]; c.Forfeits != 1 || c.Wins != 1 || c.Games != 1 {
		t.Errorf("C after R1: %+v, want 1 game, 1 win, 1 forfeit", c)
	}
	// After R2 (the B-D game still playing counts for nothing): A 3, C 3;
	// 对手分 A = B 0 + C 3 = 3, C = D 0 + A 3 = 3; wins 1 each; fouls A 0,
	// C 1 → A first, C second: fouls split them before previous round.
	r2, err := standings.Standings(ev, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Round != 2 || ids(r2) != "a c b d" || r2.Rows[0].Shared || r2.Rows[0].Points != 3 || r2.Rows[1].Fouls != 1 {
		t.Fatalf("after R2: %+v", r2.Rows)
	}
	if tb := r2.Rows[0].Tiebreaks; tb[0].Name != standings.OpponentScore || tb[0].String() != "3" || tb[2].Name != standings.Fouls {
		t.Errorf("A's tiebreaks: %+v", tb)
	}
	ct, err := standings.CrossTable(ev, 0)
	if err != nil {
		t.Fatal(err)
	}
	d := ct.Rows[3]
	if d.PlayerID != "d" || len(d.Cells) != 2 || d.Cells[0].Mark != standings.MarkForfeit || d.Cells[1].Mark != standings.MarkPlaying {
		t.Errorf("D's crosstable row: %+v", d)
	}
}

func TestStandings_Errors(t *testing.T) {
	ev := smallSwiss()
	ev.Games = append(ev.Games, standings.Game{Round: 3, Red: "a", Black: "zz", Result: result.RedWins})
	if _, err := standings.Standings(ev, 0); !errors.Is(err, standings.ErrUnknownPlayer) {
		t.Errorf("unknown player: got %v", err)
	}
	ev = smallSwiss()
	ev.Games[0].Result = result.Result(42) // result.Parse refuses unknown strings; this is what a bad conversion could hold
	if _, err := standings.Standings(ev, 0); !errors.Is(err, standings.ErrBadResult) {
		t.Errorf("bad result: got %v", err)
	}
	ev = smallSwiss()
	ev.Chain = standings.Chain{"points", "sonneborn"}
	if _, err := standings.Standings(ev, 0); !errors.Is(err, standings.ErrUnknownCriterion) {
		t.Errorf("bad chain: got %v", err)
	}
}

// TestPlacesStandings_R9SecondBestAndFouls uses an individual table given
// directly (places as R-10 left them, shared ones included).
// T1 {1, 3, 8} = 12, T2 {1, 4, 7} = 12, T3 {2, 5, 5} = 12 → best place: T1,
// T2 1 before T3 2; T1 and T2: second best 3 before 4 → T1, T2, T3.
// T4 {6, 9, 9} = 24 and T5 {6, 9, 9} = 24: equal best and second best;
// fouls T4 2, T5 1 → T5 before T4 (seed 000 ch.7 §2.3.5: 全队犯规).
func TestPlacesStandings_R9SecondBestAndFouls(t *testing.T) {
	row := func(id string, rank, fouls int) standings.Row {
		return standings.Row{PlayerID: id, Rank: rank, Fouls: fouls}
	}
	ind := standings.Table{Round: 7, Rows: []standings.Row{
		row("a", 1, 0), row("b", 1, 0), row("c", 2, 0), row("d", 3, 0), row("e", 4, 0),
		row("f", 5, 0), row("g", 5, 0), row("h", 6, 1), row("i", 6, 0), row("j", 7, 0),
		row("k", 8, 0), row("l", 9, 0), row("m", 9, 1), row("n", 9, 0), row("o", 9, 1),
	}}
	teams := []standings.Team{{ID: "T1", Number: 1}, {ID: "T2", Number: 2}, {ID: "T3", Number: 3}, {ID: "T4", Number: 4}, {ID: "T5", Number: 5}}
	members := map[string][]string{
		"T1": {"a", "d", "k"}, "T2": {"b", "e", "j"}, "T3": {"c", "f", "g"},
		"T4": {"h", "l", "m"}, "T5": {"i", "n", "o"},
	}
	tab, err := standings.PlacesStandings(ind, teams, members, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range tab.Rows {
		got = append(got, r.TeamID)
	}
	if want := []string{"T1", "T2", "T3", "T5", "T4"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if r := tab.Rows[3]; r.Tiebreaks[0].Num != 24 || r.Tiebreaks[1].Num != 6 || r.Tiebreaks[2].Num != 9 || r.Tiebreaks[3].Num != 1 {
		t.Errorf("T5 tiebreaks %+v", r.Tiebreaks)
	}
	members["T1"] = append(members["T1"], "nobody")
	if _, err := standings.PlacesStandings(ind, teams, members, 0, 0); !errors.Is(err, standings.ErrUnknownPlayer) {
		t.Errorf("got %v, want ErrUnknownPlayer", err)
	}
}

// TestTeamStandings_R6PlayoffAndR8 : two teams play a double round robin
// of 2 boards, both matches drawn 2:2 with the same boards (T-6 colours),
// so every R-6 criterion is equal: R-6 (seed 001 §14.6 以附加赛区分) sends
// them to a play-off even for the title's runner-up places. With R-8 in a
// Swiss (board points first) the same two teams still tie and share first
// with the title play-off of R-10.
func TestTeamStandings_R6PlayoffAndR8(t *testing.T) {
	ev := standings.TeamEvent{
		System: standings.SystemDoubleRoundRobin, Rounds: 2, Boards: 2,
		Teams: []standings.Team{{ID: "x", Number: 1}, {ID: "y", Number: 2}},
		Matches: []standings.Match{
			{Round: 1, First: "x", Second: "y", Boards: []standings.BoardResult{{Result: result.RedWins}, {Result: result.RedWins}}},
			{Round: 2, First: "y", Second: "x", Boards: []standings.BoardResult{{Result: result.RedWins}, {Result: result.RedWins}}},
			{Round: 3, First: "x", Second: "y", Boards: []standings.BoardResult{{Result: result.RedWins}, {Result: result.None}}},
		},
	}
	// Round 1: x wins board 1 (red), y wins board 2 (red) → 2:2. Round 2 the
	// same with y first → 2:2. Round 3 is unfinished: ignored (T-7).
	tab, err := standings.TeamStandings(ev, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tab.Rows {
		if r.Rank != 1 || !r.Shared || !r.Playoff || r.MatchPoints != 2 || r.BoardPoints != 4 || r.Matches != 2 {
			t.Errorf("R-6 row %+v", r)
		}
	}
	ev.System, ev.ByBoardPoints = standings.SystemSwiss, true
	tab, err = standings.TeamStandings(ev, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Chain[0] != standings.BoardPoints || !tab.Rows[0].Playoff || !tab.Rows[1].Shared {
		t.Errorf("R-8: %+v", tab)
	}
}

// TestStandings_S6SwissWithdrawalByRound: d withdraws after round 1 of a
// Swiss; its round-2 game, paired but never played, becomes a forfeit won
// by b (seed 000 ch.2 §2.3: 未赛对局均作负). The table after round 1 is as it
// stood then: d not yet withdrawn.
// After R2: a 2+1 = 3, c 2+1 = 3, b 0+2 = 2, d 0; 对手分 a = b 2 + c 3 = 5,
// c = d 0 + a 3 = 3 → a, c, b, d.
func TestStandings_S6SwissWithdrawalByRound(t *testing.T) {
	ev := standings.Event{
		System: standings.SystemSwiss, Rounds: 3,
		Players:     []standings.Player{{ID: "a", Number: 1}, {ID: "b", Number: 2}, {ID: "c", Number: 3}, {ID: "d", Number: 4}},
		Withdrawals: []standings.Withdrawal{{Player: "d", AfterRound: 1}},
		Games: []standings.Game{
			{Round: 1, Red: "a", Black: "b", Result: result.RedWins},
			{Round: 1, Red: "c", Black: "d", Result: result.RedWins},
			{Round: 2, Red: "a", Black: "c", Result: result.Draw},
			{Round: 2, Red: "d", Black: "b", Result: result.None},
		},
	}
	r1, err := standings.Standings(ev, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range r1.Rows {
		if r.Withdrawn || r.Forfeits != 0 {
			t.Errorf("after R1: %+v", r)
		}
	}
	r2, err := standings.Standings(ev, 2)
	if err != nil {
		t.Fatal(err)
	}
	if ids(r2) != "a c b d" {
		t.Fatalf("after R2: order %s", ids(r2))
	}
	if b, d := r2.Rows[2], r2.Rows[3]; b.Points != 2 || b.Forfeits != 1 || b.Wins != 1 || !d.Withdrawn || d.Losses != 2 {
		t.Errorf("after R2: b %+v d %+v", b, d)
	}
	if tb := r2.Rows[0].Tiebreaks[0]; tb.String() != "5" {
		t.Errorf("a's 对手分 %s, want 5", tb)
	}
	ct, err := standings.CrossTable(ev, 2)
	if err != nil {
		t.Fatal(err)
	}
	if c := ct.Rows[1].Cells[1]; c.Result != result.BlackByForfeit || c.Mark != standings.MarkForfeit || c.Points != 2 || c.OpponentID != "d" {
		t.Errorf("b's round-2 cell %+v", c)
	}
}

// TestBoardGames_T6: the first-listed team is red on board 1 and black on
// board 2 (T-6), so board 2's game has the second team's player as red and
// the fouls follow the players.
func TestBoardGames_T6(t *testing.T) {
	ev := standings.TeamEvent{Matches: []standings.Match{{Round: 2, First: "x", Second: "y", Boards: []standings.BoardResult{
		{Result: result.RedWins, FirstPlayer: "x1", SecondPlayer: "y1"},
		{Result: result.BlackWins, FirstPlayer: "x2", SecondPlayer: "y2", FirstFouls: 1},
		{Result: result.Draw},
	}}}}
	got := standings.BoardGames(ev)
	want := []standings.Game{
		{Round: 2, Red: "x1", Black: "y1", Result: result.RedWins},
		{Round: 2, Red: "y2", Black: "x2", Result: result.BlackWins, BlackFouls: 1},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestPlacesStandings_R9_UnequalTeamsSameCount: R-9 as settled — teams of
// unequal size compare the same number of members, a missing member
// counting as the last place + 1 (8 rows here, so 9). Club A holds 1st, 2nd
// and 3rd; club B is one player, 4th. Compared on three members (the
// largest club): A 1+2+3 = 6, B 4+9+9 = 22, so A first (summing what each
// has, B's 4 beat A's 6). Counting two: A 1+2 = 3, B 4+9 = 13; and with
// four counted, A's missing fourth is 9 too: A 15, B 31.
func TestPlacesStandings_R9_UnequalTeamsSameCount(t *testing.T) {
	var rows []standings.Row
	for i, id := range []string{"a1", "a2", "a3", "b1", "x5", "x6", "x7", "x8"} {
		rows = append(rows, standings.Row{PlayerID: id, Rank: i + 1})
	}
	ind := standings.Table{Round: 7, Rows: rows}
	teams := []standings.Team{{ID: "B", Number: 1}, {ID: "A", Number: 2}}
	members := map[string][]string{"A": {"a1", "a2", "a3"}, "B": {"b1"}}
	for _, tc := range []struct{ counted, a, b int }{{0, 6, 22}, {2, 3, 13}, {4, 15, 31}} {
		tab, err := standings.PlacesStandings(ind, teams, members, tc.counted, standings.NoPlayoff)
		if err != nil {
			t.Fatal(err)
		}
		sums := map[string]int{}
		for _, r := range tab.Rows {
			sums[r.TeamID] = r.Tiebreaks[0].Num
		}
		if tab.Rows[0].TeamID != "A" || sums["A"] != tc.a || sums["B"] != tc.b {
			t.Errorf("counted %d: first %s, sums %v; want A first, A %d, B %d", tc.counted, tab.Rows[0].TeamID, sums, tc.a, tc.b)
		}
	}
}
