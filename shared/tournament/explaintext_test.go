package tournament

import (
	"fmt"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

// Every shape of stored explanation is said whole in Chinese and in
// English; the stored texts are written as this package writes them.
func TestExplanationIn_EveryShape(t *testing.T) {
	swissText := explainSwiss(swiss.Explanation{Picker: 3, PickedBy: swiss.PickFloater, Reason: swiss.Offset,
		Rank: 1, Met: 2, Blocked: 1, Avoided: 1, Colour: swiss.ColourFewerReds})
	tests := []struct {
		name, stored, zh, en string
	}{
		{"swiss", swissText,
			"3号先编（高分先编）；错位配对：异行序列第2位，跳过已相遇或禁配者2人、妨碍充分配对者1人、因调换先后手、多三先或连三先、第三次浮动跳过1人；先后手：少先VS多先，少先的先走（附录三二、4(1)）",
			"no. 3 chose first (came down from a higher score group); the next in the opposite colour list: position 2 in the list, 2 passed over as already met or forbidden, 1 as blocking a complete pairing, 1 as giving swapped colours, +3, three in a row or a third float; colours: fewer reds plays red (appendix 3 §4(1))"},
		{"swiss first round", explainSwiss(swiss.Explanation{Picker: 1, PickedBy: swiss.PickFirstRound, Reason: swiss.FirstRoundPair, Colour: swiss.ColourFirstRound}),
			"1号先编（首轮按序号）；首轮配对；先后手：首轮单号台小号先走、双号台大号先走",
			"no. 1 chose first (round 1 goes by number); first-round pairing; colours: round 1: the smaller number red on odd tables, the larger on even tables"},
		{"bye", "S-7: lowest score group (score 2), no bye before; passed over 1 who had a bye and 0 whose bye would block a complete pairing",
			"S-7：最低分段（2分）中此前未轮空者轮空；跳过已轮空者1人、其轮空将妨碍充分配对者0人",
			"S-7: lowest score group (score 2), no bye before; passed over 1 who had a bye and 0 whose bye would block a complete pairing"},
		{"bye of fewest floats", "S-7: lowest score group (score 3), no bye before; this bye lets the others pair with the fewest floats (P-4)",
			"S-7：最低分段（3分）中此前未轮空者轮空；此人轮空可使其余棋手以最少的浮动配对（P-4）",
			"S-7: lowest score group (score 3), no bye before; this bye lets the others pair with the fewest floats (P-4)"},
		{"round robin", fmt.Sprintf("round-robin table, round %d: no. %d v no. %d (S-1, first listed has red%s)", 2, 4, 1, "; numbers by draw"),
			"循环赛对局秩序表第2轮：4号对1号（S-1，列前者执红；序号按抽签）",
			"round-robin table, round 2: no. 4 v no. 1 (S-1, first listed has red; numbers by draw)"},
		{"group", fmt.Sprintf("group %s, round-robin table round %d: no. %d v no. %d (S-5, S-1: first listed has red)", "B", 1, 2, 3),
			"B组循环赛对局秩序表第1轮：2号对3号（S-5、S-1，列前者执红）",
			"group B, round-robin table round 1: no. 2 v no. 3 (S-5, S-1: first listed has red)"},
		{"N+1 final", fmt.Sprintf("N+1 final: first and second after round %d meet whether or not they have met (S-4)", 7),
			"N+1决赛：第7轮后的第一、二名无论是否相遇过都进行决赛（S-4）",
			"N+1 final: first and second after round 7 meet whether or not they have met (S-4)"},
		{"bracket", fmt.Sprintf("bracket match %s: upper slot v lower slot (S-3)", "R1-2"),
			"淘汰赛第1轮第2组：上签位对下签位（S-3）",
			"round 1, match 2: upper slot v lower slot (S-3)"},
		{"regular game", fmt.Sprintf("match %s, game %d of the regular %d (S-3)", "3P", 2, 2),
			"三四名决赛：常规2局中的第2局（S-3）",
			"the third-place match: game 2 of the regular 2 (S-3)"},
		{"rapid game", fmt.Sprintf("match %s level after %d game(s): additional rapid game %d (rapid match %d game %d) at %s (附加快棋, S-3)", "P5-8", 2, 4, 1, 2, "rapid-5/30"),
			"第5–8名排位赛常规对局战平：附加快棋第1场第2局，时限每方5分钟走30步（S-3）",
			"the match for places 5–8 level after the regular games: additional rapid match 1, game 2, at 5 minutes each for 30 moves (S-3)"},
		{"rapid game stored before rapid matches", "match F level after 2 game(s): additional rapid game 3 at blitz-of-old (附加快棋, S-3)",
			"决赛前2局战平：附加快棋，全场第3局，快棋时限（S-3）",
			"the final level after 2 game(s): additional rapid games, game 3 of the tie, at a rapid time control (S-3)"},
		{"ring", "the ring's holder meets the next challenger in registration order (S-8)",
			"擂主迎战按报名顺序的下一位攻擂者（S-8）",
			"the ring's holder meets the next challenger in registration order (S-8)"},
		{"colours swapped", "changed by the organiser: table 1: colours swapped, p7 now red; 请求",
			"组织者调整：第1台交换先后手，p7执红；备注：请求",
			"changed by the organiser: table 1: colours swapped, p7 now red; 请求"},
		{"forced pair", "changed by the organiser: forced pair p1 (red) v p2 (black)",
			"组织者调整：指定配对 p1（红）对 p2（黑）",
			"changed by the organiser: forced pair p1 (red) v p2 (black)"},
		{"bye moved", "changed by the organiser: bye moved from p3 to p4, who takes table 2",
			"组织者调整：轮空由 p3 改为 p4，前者改下第2台",
			"changed by the organiser: bye moved from p3 to p4, who takes table 2"},
		{"empty", "", "", ""},
	}
	for _, tc := range tests {
		e := Explanation{ScoreGroup: 2, Opponent: tc.stored, OpponentReason: "sameRank", ColourReason: "alternate"}
		if got := e.In(Chinese); got.Opponent != tc.zh || got.OpponentReason != e.OpponentReason || got.ColourReason != e.ColourReason {
			t.Errorf("%s in Chinese: %+v, want the text %q and the codes kept", tc.name, got, tc.zh)
		}
		if got := e.In(English).Opponent; got != tc.en {
			t.Errorf("%s in English: %q, want %q", tc.name, got, tc.en)
		}
	}
}

// A text of no known shape is said from its codes in Chinese, and in
// English without the Chinese terms it names beside their meaning.
func TestExplanationIn_UnknownShape(t *testing.T) {
	e := Explanation{ScoreGroup: 4, Opponent: "a pair from elsewhere (附加赛, S-3)", OpponentReason: "floatDown", ColourReason: "numberSum"}
	if got, want := e.In(Chinese).Opponent, "第4分段；下调配对；先后手：条件均同，号码和奇数小号先走、偶数大号先走"; got != want {
		t.Errorf("in Chinese: %q, want %q", got, want)
	}
	if got, want := e.In(English).Opponent, "a pair from elsewhere (S-3)"; got != want {
		t.Errorf("in English: %q, want %q", got, want)
	}
}
