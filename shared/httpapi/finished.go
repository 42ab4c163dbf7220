package httpapi

import (
	"net/http"
)

// GET /tournaments/{tid} — public. The status reads "finished" as soon as
// the last round's results are all in (or the bracket is decided): it is
// computed here, since results are written by the game handlers, and stored
// when the organiser next asks for a round (refused with event_complete).
func (a *API) getTournament(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	t, _, err := a.svc.Tournament(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	if t.MayBeFinished() { // from the event item alone: load the whole event only then
		// Whether every result is in is kept as a view (views.go), so
		// the last round's polls do not each read the whole event.
		vw, err := a.openView(c, tid, finishedView)
		if err != nil {
			return 0, nil, err
		}
		var done finishedOut
		if vw.current() && vw.head(&done) == nil {
			t = vw.t
		} else {
			ev, err := a.loadEvent(c.ctx(), tid)
			if err != nil {
				return 0, nil, err
			}
			t, done.Finished = ev.T, ev.Over()
			saveView(vw, done, []int(nil), tableDeps(ev.T.Round), nil)
		}
		if done.Finished {
			t.Finish()
		}
	}
	out, err := a.withMirror(c, tournamentView(t)) // a mirror's copy says so (mirror.go)
	return http.StatusOK, out, err
}

// finishedView is the view that says whether an event is over.
const finishedView = "finished"

// finishedOut is the finished view's head.
type finishedOut struct {
	Finished bool `json:"finished"`
}
