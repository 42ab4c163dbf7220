package combined

import "fmt"

// NPlusOneSplit splits the standings after round N of an N+1 event (S-4,
// 001 §10.4.3.1): the top two play the final whether or not they have met;
// the rest are paired by the Swiss for round N+1 and decide places 3 on.
func NPlusOneSplit(ranked []string) (finalists [2]string, rest []string, err error) {
	if len(ranked) < 2 {
		return finalists, nil, fmt.Errorf("n+1 with %d players: %w", len(ranked), ErrField)
	}
	return [2]string{ranked[0], ranked[1]}, append([]string(nil), ranked[2:]...), nil
}

// ColourCount is how often a player had red and black in earlier rounds.
type ColourCount struct {
	Red, Black int
}

// FinalColours are the colours of the N+1 final. When the earlier colours
// cannot decide, Red and Black are empty and Chooser, the higher-ranked
// finalist, picks (Choose).
type FinalColours struct {
	Red, Black string
	Chooser    string
}

// NPlusOneColours sets the final's colours (001 §10.4.3.2): first balance
// the two players' earlier colours — the one with fewer reds relative to
// blacks has red, and on equal balance the one with fewer reds (as P-7 reads
// "wants red"); if both counts are the same, the higher-ranked (first)
// chooses.
func NPlusOneColours(first, second string, firstCount, secondCount ColourCount) FinalColours {
	d1, d2 := firstCount.Red-firstCount.Black, secondCount.Red-secondCount.Black
	switch {
	case d1 < d2, d1 == d2 && firstCount.Red < secondCount.Red:
		return FinalColours{Red: first, Black: second}
	case d1 > d2, d1 == d2 && firstCount.Red > secondCount.Red:
		return FinalColours{Red: second, Black: first}
	}
	return FinalColours{Chooser: first}
}

// Choose applies the chooser's wish; colours already set are kept.
func (fc FinalColours) Choose(opponent string, chooserTakesRed bool) FinalColours {
	if fc.Chooser == "" {
		return fc
	}
	if chooserTakesRed {
		return FinalColours{Red: fc.Chooser, Black: opponent, Chooser: fc.Chooser}
	}
	return FinalColours{Red: opponent, Black: fc.Chooser, Chooser: fc.Chooser}
}

// FinalistScore is a finalist's score after N rounds and the game points of
// the final's slow game(s), tie-break rapid games excluded.
type FinalistScore struct {
	Player    string
	AfterN    int
	FinalSlow int
}

// NPlusOneOpponentScores returns, per finalist, the score that every player
// who met that finalist in rounds 1…N counts for 对手分 (R-4a): the score
// after N rounds plus the final's slow-game points, i.e. the finalist's N+1
// round score (001 §10.4.3.3). Standings look these up instead of the
// finalist's plain total.
func NPlusOneOpponentScores(finalists [2]FinalistScore) map[string]int {
	out := make(map[string]int, 2)
	for _, f := range finalists {
		out[f.Player] = f.AfterN + f.FinalSlow
	}
	return out
}
