package httpapi

import (
	"net/http"

	"github.com/xqtour/xqtour/shared/result"
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

// GET /tournaments/{tid}/ring — public: a challenge event's ring (S-8,
// service.Ring): the first defender, the holder now (null while a
// challenge is played), every challenge with who held the ring before and
// after, and the challengers waiting, in order.
func (a *API) getRing(c *call) (int, any, error) {
	ring, err := a.svc.Ring(c.ctx(), c.r.PathValue("tid"))
	if err != nil {
		return 0, nil, err
	}
	out := map[string]any{"drawRule": ring.Event.T.Settings.ChallengeDraw, "defender": ring.Defender, "holder": ring.Holder}
	challenges := []challengeOut{}
	for _, ch := range ring.Challenges {
		co := challengeOut{Round: ch.Round, Challenger: ch.Challenger, HolderBefore: ch.HolderBefore, Red: ch.Red, Black: ch.Black, GameID: ch.GameID}
		if ch.Result != result.None {
			res, after := ch.Result.String(), ch.HolderAfter
			co.Result, co.HolderAfter = &res, &after
		}
		challenges = append(challenges, co)
	}
	out["challenges"], out["waiting"] = challenges, ring.Waiting
	if ring.DefendingTeam != nil {
		out["defendingTeam"] = ring.DefendingTeam
	}
	return http.StatusOK, out, nil
}
