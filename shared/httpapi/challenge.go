package httpapi

import (
	"net/http"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/tournament"
)

// challengeOut is one challenge of the ring, with the players' names.
type challengeOut struct {
	Round        int     `json:"round"`
	Challenger   string  `json:"challenger"`
	HolderBefore string  `json:"holderBefore"`
	Red          string  `json:"red"`
	Black        string  `json:"black"`
	GameID       string  `json:"gameId"`
	Result       *string `json:"result"`
	HolderAfter  *string `json:"holderAfter"`
}

// ringPlayerOut names a player of the ring.
type ringPlayerOut struct {
	ID     string `json:"id"`
	Number int    `json:"number"`
	Name   string `json:"name"`
}

// GET /tournaments/{tid}/ring — public: a challenge event's ring (S-8): the
// first defender, the holder now (null while a challenge is played), every
// challenge with who held the ring before and after, and the challengers
// waiting, in order.
func (a *API) getRing(c *call) (int, any, error) {
	ev, err := a.loadEvent(c.ctx(), c.r.PathValue("tid"))
	if err != nil {
		return 0, nil, err
	}
	ring, err := tournament.RingOf(ev.T, ev.H)
	if err != nil {
		return 0, nil, err
	}
	person := func(id string) *ringPlayerOut {
		p := ev.H.Player(id)
		if p == nil {
			return nil
		}
		return &ringPlayerOut{ID: p.ID, Number: p.Number, Name: p.Name}
	}
	out := map[string]any{"drawRule": ev.T.Settings.ChallengeDraw, "defender": person(ring.Defender), "holder": person(ring.Holder)}
	challenges := []challengeOut{}
	for _, ch := range ring.Challenges {
		co := challengeOut{Round: ch.Round, Challenger: ch.Challenger, HolderBefore: ch.HolderBefore, Red: ch.Red, Black: ch.Black, GameID: ch.GameID}
		if ch.Result != result.None {
			res, after := ch.Result.String(), ch.HolderAfter
			co.Result, co.HolderAfter = &res, &after
		}
		challenges = append(challenges, co)
	}
	waiting := []*ringPlayerOut{}
	for _, id := range ring.Waiting {
		waiting = append(waiting, person(id))
	}
	out["challenges"], out["waiting"] = challenges, waiting
	if ring.DefendingTeam != nil {
		team := []*ringPlayerOut{}
		for _, id := range ring.DefendingTeam {
			team = append(team, person(id))
		}
		out["defendingTeam"] = team
	}
	return http.StatusOK, out, nil
}
