package httpapi

import (
	"bytes"
	"errors"
	"net/http"
	"strconv"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/tournament"
)

// tieView fills a team knockout match's tie fields: the bracket match it
// belongs to, whether it is an additional rapid match, and once scored its
// winner and what decided it (S-3).
func tieView(ev *event, te *service.TeamEvent, r *tournament.Round, m tournament.TeamMatch, mo *matchOut) {
	if m.Tie == "" {
		return
	}
	mo.Tie, mo.Rapid = m.Tie, m.Rapid
	if leg := te.TH.DecideLeg(ev.T, r, m); leg.Winner != "" {
		mo.Winner, mo.DecidedBy = leg.Winner, leg.DecidedBy
		if tm := te.TH.Team(leg.Winner); tm != nil {
			mo.WinnerName = tm.Name
		}
	}
}

type knockoutPlaceOut struct {
	Place    int    `json:"place"`
	PlayerID string `json:"playerId,omitempty"`
	TeamID   string `json:"teamId,omitempty"`
	Name     string `json:"name"`
	Number   int    `json:"number"`
	From     string `json:"from"`
	// GroupPlace is a team's place in its group (team groups events).
	GroupPlace int `json:"groupPlace,omitempty"`
}

// knockoutPlaces is ?view=overall of a finished knockout (S-3): the final,
// the third-place match when played, then by the round each player or team
// went out in, those out in the same round sharing the place; and of a team
// groups event, the places across groups and finals (S-5). A team event's
// rows name teams.
func knockoutPlaces(ev *event, format string) (int, any, error) {
	var (
		places []tournament.OverallPlace
		err    error
		te     *service.TeamEvent
	)
	if ev.T.Settings.Teams {
		if te, err = ev.Teams(); err != nil {
			return 0, nil, err
		}
		places, err = tournament.TeamOverallPlaces(ev.T, te.TH)
	} else {
		places, err = tournament.KnockoutPlaces(ev.T, ev.H)
	}
	if err != nil {
		var re *tournament.RuleError
		if errors.As(err, &re) && re.Code == tournament.CodeSystemNotSupported {
			return 0, nil, &tournament.RuleError{Code: "no_overall_places", Message: "overall places are those of a groups event or a knockout (individual or team)", Rule: re.Rule}
		}
		return 0, nil, err
	}
	rows := make([]knockoutPlaceOut, len(places))
	for i, p := range places {
		row := knockoutPlaceOut{Place: p.Place, From: p.From, GroupPlace: p.GroupPlace}
		if te != nil {
			row.TeamID = p.Player
			if tm := te.TH.Team(p.Player); tm != nil {
				row.Name, row.Number = tm.Name, tm.Number
			}
		} else if pl := ev.H.Player(p.Player); pl != nil {
			row.PlayerID, row.Name, row.Number = p.Player, pl.Name, pl.Number
		}
		rows[i] = row
	}
	if format == "csv" {
		var buf bytes.Buffer
		w := newCSVWriter(&buf)
		_ = w.Write([]string{"place", "number", "id", "name", "from"})
		for _, r := range rows {
			_ = w.Write([]string{strconv.Itoa(r.Place), strconv.Itoa(r.Number), r.PlayerID + r.TeamID, r.Name, r.From})
		}
		w.Flush()
		return http.StatusOK, raw{contentType: "text/csv; charset=utf-8", data: buf.Bytes()}, nil
	}
	return http.StatusOK, map[string]any{"round": ev.T.Round, "view": "overall", "rows": rows}, nil
}
