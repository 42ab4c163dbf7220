package tournament

import (
	"slices"

	"github.com/xqtour/xqtour/shared/team"
)

// The all-play-all table of 002 (团体循环对抗赛秩序表（8-8）, T-4) has rounds:
// its 第一轮 … 第八轮 are played one after the other, each a sitting in
// which every member plays one game. An event created with
// Settings.AllPlayAllSittings plays each of them as a round of the event: a
// meeting of two teams of n members takes n consecutive event rounds, the
// same match (its id, home and away, the lineups set in its first round) in
// each, and its score (T-7) counts every game of the n rounds. Events created
// before keep the layout they were paired with: the meeting's n×n games in
// one round.

// sittings is how many event rounds one meeting of two teams takes: the
// boards under T-4 with sittings as rounds, else 1.
func (s Settings) sittings() int {
	if s.AllPlayAllSittings && s.TeamFormat == team.AllPlayAll.String() && s.Boards > 1 {
		return s.Boards
	}
	return 1
}

// meetingOf returns the meeting (from 1) an event round belongs to and the
// sitting (from 1, the table's 轮次) it is within the meeting.
func (s Settings) meetingOf(round int) (meeting, sitting int) {
	n := s.sittings()
	return (round-1)/n + 1, (round-1)%n + 1
}

// firstSitting is the event round that opens round's meeting.
func (s Settings) firstSitting(round int) int {
	m, _ := s.meetingOf(round)
	return (m-1)*s.sittings() + 1
}

// tablesPerMatch is how many tables one match uses in an event round.
func tablesPerMatch(s Settings) int {
	if s.sittings() > 1 {
		return s.Boards
	}
	return boardsPerMatch(s)
}

// meetingRounds returns the event rounds of r's meeting paired so far, in order.
func (th *TeamHistory) meetingRounds(t *Tournament, r *Round) []*Round {
	if t.Settings.sittings() == 1 {
		return []*Round{r}
	}
	first := t.Settings.firstSitting(r.Number)
	var out []*Round
	for _, x := range th.Rounds {
		if x.Number >= first && x.Number < first+t.Settings.sittings() {
			out = append(out, x)
		}
	}
	if !slices.Contains(out, r) { // r is being paired: not in the history yet
		out = append(out, r)
	}
	return out
}

// nextSitting returns round n of the event as the next sitting of the
// meeting the previous round belongs to: the same matches and rests, each
// match's games laid out from the lineups of the meeting's first round.
func nextSitting(t *Tournament, th *TeamHistory, n int, o PairOptions, gameID GameIDFunc) (*Round, error) {
	prev := th.Rounds[len(th.Rounds)-1]
	r := &Round{Number: n, PairedAt: o.Now, Byes: slices.Clone(prev.Byes), Stage: prev.Stage}
	r.Matches = slices.Clone(prev.Matches)
	if _, err := th.SetMatches(t, r, gameID); err != nil {
		return nil, err
	}
	return r, nil
}
