package tournament_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/swiss"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

// TestStandings_R10_TitleTieNeedsPlayoff: 000 ch.7 §2 3.6 (冠军或不宜并列的名次，
// 应安排加赛或在赛前补充细则中作出明确规定). Four players, one round of a
// Swiss, both games drawn: everyone has 1 point, 对手分 1, no win, no
// foul; the two who had black lead on games as black and stay tied for
// first through the rest of R-4a's chain. By default the title cannot be
// shared: both rows are marked for a play-off. With shareTitle they share
// first place; asking for both is refused.
func TestStandings_R10_TitleTieNeedsPlayoff(t *testing.T) {
	for _, tc := range []struct {
		share   bool
		playoff bool
	}{{false, true}, {true, false}} {
		ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5, ShareTitle: tc.share}, 4)
		var rounds []*tournament.Round
		var results []tournament.Result
		play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, func(tournament.Pairing) string { return "1/2-1/2" })
		in, err := tournament.StandingsEvent(ev, tournament.NewHistory(ps, rounds, results))
		if err != nil {
			t.Fatal(err)
		}
		table, err := standings.Standings(in, 1)
		if err != nil {
			t.Fatal(err)
		}
		top := table.Rows[:2]
		for _, r := range top {
			if r.Rank != 1 || r.Playoff != tc.playoff || !r.Shared {
				t.Errorf("shareTitle %v: %s rank %d playoff %v shared %v, want rank 1, still tied, playoff %v", tc.share, r.PlayerID, r.Rank, r.Playoff, r.Shared, tc.playoff)
			}
		}
	}
	_, err := tournament.New("e", tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5, ShareTitle: true, Playoff: true}, "", 0)
	var fe *tournament.FieldError
	if !errors.As(err, &fe) || fe.Rule != "R-10" {
		t.Errorf("shareTitle with playoff: %v", err)
	}
}

// TestNextGames_S3_LoserTakesRed: 000 ch.2 §4 第4条 (多局制比赛，由红棋方先走一局
// 完了，二局输棋方执红先行或换棋轮流先走) — both ways are selectable. A two-game
// knockout match whose first game black wins: alternating gives the winner
// red in game 2; loserTakesRed keeps red with the loser, the game-1 red.
func TestNextGames_S3_LoserTakesRed(t *testing.T) {
	for _, tc := range []struct {
		colours    string
		sameRed    bool
		reasonWant string
	}{{"", false, "alternate"}, {tournament.ColoursLoserTakesRed, true, "loserTakesRed"}} {
		ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Knockout, GamesPerMatch: 2,
			Knockout: tournament.KnockoutOptions{Colours: tc.colours}}, 2)
		var rounds []*tournament.Round
		var results []tournament.Result
		r1 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, func(tournament.Pairing) string { return "0-1" })
		add, ex, err := tournament.NextGames(ev, tournament.NewHistory(ps, rounds, results), gid)
		if err != nil || len(add) != 1 {
			t.Fatalf("%q: next games %v %+v", tc.colours, err, add)
		}
		if got := add[0].Red == r1.Pairings[0].Red; got != tc.sameRed || ex[0].ColourReason != tc.reasonWant {
			t.Errorf("%q: game 2 red %s (game 1 red %s, colour reason %s)", tc.colours, add[0].Red, r1.Pairings[0].Red, ex[0].ColourReason)
		}
	}
	_, err := tournament.New("e", tournament.Settings{Name: "x", System: tournament.Knockout, Knockout: tournament.KnockoutOptions{Colours: "winnerTakesRed"}}, "", 0)
	var fe *tournament.FieldError
	if !errors.As(err, &fe) || fe.Field != "knockout.colours" || fe.Rule != "S-3" {
		t.Errorf("unknown colour rule: %v", err)
	}
}

// TestForfeits_C6_DoubleForfeitIsNoGame: 000 ch.2 §3 2 (若双方均超过规定时限即
// 判双方弃) — a double forfeit scores nothing for either side and, the game
// never having been played, is neither a colour nor a meeting: the Swiss
// pairing may pair the two again and the standings count no game, no black
// game and no opponent for it, only a forfeit. A single forfeit stays a
// game as paired in both (colour, meeting, win and loss).
func TestForfeits_C6_DoubleForfeitIsNoGame(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 7, Numbering: tournament.NumberingRegistration}, 4)
	var rounds []*tournament.Round
	var results []tournament.Result
	r1 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, func(p tournament.Pairing) string {
		if p.Table == 1 {
			return "0-0"
		}
		return "+-"
	})
	void, single := r1.Pairings[0], r1.Pairings[1]
	h := tournament.NewHistory(ps, rounds, results)
	in, err := tournament.SwissInput(ev, h, tournament.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	num := tournament.PairingNumbers(ev, ps)
	for _, p := range in.Players {
		r := p.History[0]
		switch p.Number {
		case num[void.Red], num[void.Black]:
			if r.Side != swiss.Absent || r.Opponent != 0 || p.Score != 0 {
				t.Errorf("double forfeit, player %d: %+v score %d, want no colour, no opponent, 0", p.Number, r, p.Score)
			}
		case num[single.Red]:
			if r.Side != swiss.Red || r.Opponent != num[single.Black] || p.Score != 2 {
				t.Errorf("forfeit win, player %d: %+v score %d, want red against %d, 2", p.Number, r, p.Score, num[single.Black])
			}
		}
	}
	sev, err := tournament.StandingsEvent(ev, h)
	if err != nil {
		t.Fatal(err)
	}
	table, err := standings.Standings(sev, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range table.Rows {
		switch row.PlayerID {
		case void.Red, void.Black:
			if row.Points != 0 || row.Games != 0 || row.Losses != 0 || row.BlackGames != 0 || row.Forfeits != 1 || row.Tiebreaks[0].Num != 0 {
				t.Errorf("double forfeit row %+v: want no game, colour or opponent, one forfeit", row)
			}
		case single.Black:
			if row.Games != 1 || row.Losses != 1 || row.BlackGames != 1 || row.Forfeits != 1 {
				t.Errorf("forfeit loss row %+v: want a game lost as black", row)
			}
		}
	}
}

// TestRoundRobin_S6_WithdrawalBeforeRound1Renumbers: 001 §14.4 (在比赛开始前
// 退出，如系循环制且剩余为双数，应重新抽签) and 000 ch.2 §2.1: a player who
// leaves before round 1 is paired is not in the table; the four left get the
// four-player table (3 rounds, no rests), numbered without the gap.
func TestRoundRobin_S6_WithdrawalBeforeRound1Renumbers(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.RoundRobin}, 5)
	if err := ev.Withdraw(ps[2]); err != nil {
		t.Fatal(err)
	}
	var rounds []*tournament.Round
	var results []tournament.Result
	for n := 1; n <= 3; n++ {
		r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
		if len(r.Pairings) != 2 || len(r.Byes) != 0 {
			t.Fatalf("round %d: %+v, want two games and no rest", n, r)
		}
		for _, p := range r.Pairings {
			if p.Red == ps[2].ID || p.Black == ps[2].ID {
				t.Fatalf("round %d pairs the withdrawn player: %+v", n, p)
			}
		}
	}
	_, err := tournament.PairNext(ev, tournament.NewHistory(ps, rounds, results), tournament.PairOptions{}, gid)
	var re *tournament.RuleError
	if !errors.As(err, &re) || re.Code != tournament.CodeEventComplete {
		t.Fatalf("fourth round: %v, want the four-player table complete", err)
	}
	if got := len(tournament.RoundRobinOrder(ev, ps)); got != 4 {
		t.Errorf("table of %d, want 4", got)
	}
}

// TestRoundRobin_S6_DueCountsRealOpponents: 000 ch.2 §2.2 (凡已赛对手数不到
// 应赛对手数的一半，则所有已赛结果一概注销) with 应赛对手数 as settled (001 §14.4):
// only players still in the event or who have played count. Six entered,
// one left before round 1, so five play (one rests each round) and each is
// due 4 opponents. A player who has met 2 of them and leaves has met half:
// the results stand and the 2 games left are forfeits won by the
// opponents (counting the sixth entrant, 2 of 5 would have annulled them).
func TestRoundRobin_S6_DueCountsRealOpponents(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.RoundRobin}, 6)
	if err := ev.Withdraw(ps[5]); err != nil {
		t.Fatal(err)
	}
	var rounds []*tournament.Round
	var results []tournament.Result
	games := map[string]int{}
	var leaver *tournament.Player
	for n := 1; n <= 3 && leaver == nil; n++ {
		r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
		for _, p := range r.Pairings {
			games[p.Red]++
			games[p.Black]++
		}
		for _, p := range ps[:5] {
			if games[p.ID] == 2 {
				leaver = p
				break
			}
		}
	}
	if leaver == nil {
		t.Fatal("nobody played two games")
	}
	if err := ev.Withdraw(leaver); err != nil {
		t.Fatal(err)
	}
	sev, err := tournament.StandingsEvent(ev, tournament.NewHistory(ps, rounds, results))
	if err != nil {
		t.Fatal(err)
	}
	table, err := standings.Standings(sev, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range table.Annulled {
		if id == leaver.ID {
			t.Fatalf("%s met 2 of 4 real opponents and was annulled", id)
		}
	}
	for _, row := range table.Rows {
		if row.PlayerID == leaver.ID && (row.Games != 4 || row.Forfeits != 2 || !row.Withdrawn) {
			t.Errorf("leaver's row %+v, want 2 games played and 2 forfeits lost", row)
		}
	}
}

// TestWithdrawal_S6_LastRoundUnfinishedIsForfeit: 000 ch.2 §2.2 (如他下过的棋
// 有的还未终局…一般均当作他已弃权，按负局计算) and §2.3 for a Swiss. A player who
// withdraws during the last round, his game unfinished, loses it by forfeit:
// the standings after that round score it, the opponent wins.
func TestWithdrawal_S6_LastRoundUnfinishedIsForfeit(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 1}, 4)
	var rounds []*tournament.Round
	var results []tournament.Result
	r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, func(p tournament.Pairing) string {
		if p.Table == 1 {
			return "" // still being played
		}
		return "1-0"
	})
	g := r.Pairings[0]
	leaver := map[string]*tournament.Player{}
	for _, p := range ps {
		leaver[p.ID] = p
	}
	if err := ev.Withdraw(leaver[g.Red]); err != nil {
		t.Fatal(err)
	}
	sev, err := tournament.StandingsEvent(ev, tournament.NewHistory(ps, rounds, results))
	if err != nil {
		t.Fatal(err)
	}
	table, err := standings.Standings(sev, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range table.Rows {
		switch row.PlayerID {
		case g.Red:
			if row.Losses != 1 || row.Forfeits != 1 || row.Points != 0 {
				t.Errorf("withdrawn red %+v, want a forfeit loss", row)
			}
		case g.Black:
			if row.Wins != 1 || row.Forfeits != 1 || row.Points != 2 {
				t.Errorf("black %+v, want a forfeit win", row)
			}
		}
	}
}

// TestSettings_R9_PlacesCounted: the number of members a teams-by-places
// table compares is an event setting (R-9 as settled), 0…100, refused
// outside naming R-9.
func TestSettings_R9_PlacesCounted(t *testing.T) {
	if _, err := tournament.New("e", tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 7, PlacesCounted: 3}, "", 0); err != nil {
		t.Fatal(err)
	}
	_, err := tournament.New("e", tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 7, PlacesCounted: -1}, "", 0)
	var fe *tournament.FieldError
	if !errors.As(err, &fe) || fe.Field != "placesCounted" || fe.Rule != "R-9" {
		t.Errorf("placesCounted -1: %v", err)
	}
}
