package httpapi

import (
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
