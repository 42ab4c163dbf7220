package tournament

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/pairing/combined"
	"github.com/xqtour/xqtour/shared/pairing/knockout"
	"github.com/xqtour/xqtour/shared/pairing/roundrobin"
)

// Numberings: which player holds which number of a round-robin table (S-1:
// "numbers by draw or by seeding") or which pairing number of an individual
// Swiss (P-3, see PairingNumbers).
const (
	// NumberingRegistration gives each player their registration number (the default).
	NumberingRegistration = "registration"
	// NumberingRating gives number 1 to the highest rating, then down;
	// equal ratings keep registration order (001 §10.1 seeds by rating).
	NumberingRating = "rating"
	// NumberingDraw numbers by a lot seeded from the tournament id alone, so
	// the lot is drawn once and every later round and every retry reads the
	// same numbers (DrawSeed).
	NumberingDraw = "draw"
)

// KnockoutOptions are the organiser's choices for the knockout matches of
// knockout, doubleElimination, swissKnockout and cross-finals groups events
// (S-3, S-4). Zero values mean the defaults, so events stored before these
// options existed pair as they did.
type KnockoutOptions struct {
	// ThirdPlace adds a match between the semi-final losers to a single
	// elimination (knockout only; S-3).
	ThirdPlace bool
	// Placings, from 5, has matches decide every place down to it
	// (附加赛, 001 §10.3; knockout only, S-3): the third-place match, and
	// the losers of each earlier round playing for their places (the
	// quarter-final losers for 5–8, …). 0: none beyond ThirdPlace.
	Placings int
	// Reset plays a second grand final in a double elimination when the
	// losers' champion wins the first (doubleElimination only; nil means true).
	Reset *bool
	// Finalists is how many of the Swiss standings go on to the knockout of
	// a swissKnockout event (S-4, 001 §10.4.1): 2 (default) — 1v2 for the
	// title, 3v4 for bronze; 4 — 1v4 and 2v3, then final and third place.
	Finalists int
	// TieBreak is the clock preset of the additional rapid games (附加快棋)
	// that settle a level match (S-3, C-2); default
	// knockout.DefaultTieBreakTimeControl.
	TieBreak string
	// Colours is how colours move between a match's games (S-3):
	// ColoursAlternate (default, 001 §12.4 第二局换先) or ColoursLoserTakesRed
	// (000 ch.2 §4 第4条: 二局输棋方执红先行; after a draw they swap).
	Colours string
	// TeamTieBreak decides a level team match of a team knockout:
	// TeamTieBreakBoardCount (default) or TeamTieBreakRapidMatch
	// (teamknockout.go).
	TeamTieBreak string
}

// How colours move between the games of a knockout match (S-3).
const (
	ColoursAlternate     = "alternate"
	ColoursLoserTakesRed = "loserTakesRed"
)

// playsKnockoutMatches reports whether the settings have knockout matches.
func (s *Settings) playsKnockoutMatches() bool {
	switch s.System {
	case Knockout, DoubleElimination, SwissKnockout:
		return true
	case Groups:
		return s.Groups.Finals == FinalsCross
	}
	return false
}

// normalizeOptions fills and checks the title's play-off or sharing,
// the members a teams-by-places table compares, the numbering (S-1,
// P-3) and the knockout options (S-3, S-4); a system that does not use one
// refuses it.
// It runs after normalizeCombined, which fills the groups' finals.
func (s *Settings) normalizeOptions() error {
	if s.PlacesCounted < 0 || s.PlacesCounted > 100 {
		return &FieldError{Field: "placesCounted", Message: "must be between 0 (as many as the largest team has) and 100", Rule: "R-9"}
	}
	if s.Playoff && s.ShareTitle {
		return &FieldError{Field: "shareTitle", Message: "an event cannot both share the title and decide it by play-off", Rule: "R-10"}
	}
	switch {
	case s.System == RoundRobin || s.System == DoubleRoundRobin:
		switch s.Numbering {
		case "":
			s.Numbering = NumberingRegistration
		case NumberingRegistration, NumberingRating, NumberingDraw:
		default:
			return &FieldError{Field: "numbering", Message: fmt.Sprintf("unknown numbering %q (want registration, rating or draw)", s.Numbering), Rule: "S-1"}
		}
	case swissNumbered(*s):
		// P-3: round 1 by rating unless the organiser asks otherwise.
		switch s.Numbering {
		case "":
			s.Numbering = NumberingRating
		case NumberingRegistration, NumberingRating, NumberingDraw:
		default:
			return &FieldError{Field: "numbering", Message: fmt.Sprintf("unknown numbering %q (want rating, draw or registration)", s.Numbering), Rule: "P-3"}
		}
	case s.Numbering != "" && s.Numbering != NumberingRegistration:
		return &FieldError{Field: "numbering", Message: "only a round robin or an individual Swiss numbers its players", Rule: "S-1"}
	default:
		s.Numbering = ""
	}
	k := &s.Knockout
	if !s.playsKnockoutMatches() {
		if *k != (KnockoutOptions{}) {
			return &FieldError{Field: "knockout", Message: "only knockout, doubleElimination, swissKnockout and groups with cross finals play knockout matches", Rule: "S-3"}
		}
		return nil
	}
	if k.Placings != 0 && (s.System != Knockout || s.Teams || k.Placings < 5 || k.Placings > MaxPlayers) {
		return &FieldError{Field: "knockout.placings", Rule: "S-3",
			Message: fmt.Sprintf("the lowest place decided by a placing match (附加赛): 5 to %d, in an individual single elimination (knockout) only; places 3–4 are thirdPlace", MaxPlayers)}
	}
	if k.Placings != 0 {
		k.ThirdPlace = true // the placings begin with the semi-final losers
	}
	if k.ThirdPlace && s.System != Knockout {
		return &FieldError{Field: "knockout.thirdPlace", Message: "only a single elimination (knockout) adds a third-place match; a double elimination's losers' bracket decides third place, and swissKnockout and cross finals always play it", Rule: "S-3"}
	}
	if s.System == DoubleElimination {
		if k.Reset == nil {
			reset := true
			k.Reset = &reset
		}
	} else if k.Reset != nil {
		return &FieldError{Field: "knockout.reset", Message: "only a doubleElimination event has a grand-final reset", Rule: "S-3"}
	}
	if s.System == SwissKnockout {
		if k.Finalists == 0 {
			k.Finalists = 2
		}
		if k.Finalists != 2 && k.Finalists != 4 {
			return &FieldError{Field: "knockout.finalists", Message: "must be 2 (1v2 final, 3v4 bronze) or 4 (1v4 and 2v3, then final and third place)", Rule: "S-4"}
		}
	} else if k.Finalists != 0 {
		return &FieldError{Field: "knockout.finalists", Message: "only a swissKnockout event picks finalists from its Swiss", Rule: "S-4"}
	}
	if k.TieBreak == "" {
		k.TieBreak = knockout.DefaultTieBreakTimeControl
	}
	switch k.Colours {
	case "":
		k.Colours = ColoursAlternate
	case ColoursAlternate, ColoursLoserTakesRed:
	default:
		return &FieldError{Field: "knockout.colours", Message: fmt.Sprintf("unknown colour rule %q (want alternate or loserTakesRed)", k.Colours), Rule: "S-3"}
	}
	if _, ok := clock.Preset(k.TieBreak); !ok {
		names := clock.PresetNames()
		sort.Strings(names)
		return &FieldError{Field: "knockout.tieBreak", Message: fmt.Sprintf("unknown preset %q for the additional rapid games (want one of %s)", k.TieBreak, strings.Join(names, ", ")), Rule: "S-3"}
	}
	return nil
}

// KnockoutInEffect is the knockout options the pairing applies: the stored
// ones with every default filled in, so an event stored before the options
// existed reads as it is paired; zero for systems without knockout matches.
func (s Settings) KnockoutInEffect() KnockoutOptions {
	if !s.playsKnockoutMatches() {
		return KnockoutOptions{}
	}
	k := s.Knockout
	if s.System == DoubleElimination && k.Reset == nil {
		reset := true
		k.Reset = &reset
	}
	if s.System == SwissKnockout && k.Finalists == 0 {
		k.Finalists = 2
	}
	if k.TieBreak == "" {
		k.TieBreak = knockout.DefaultTieBreakTimeControl
	}
	if k.Colours == "" {
		k.Colours = ColoursAlternate
	}
	if teamKnockout(s) && k.TeamTieBreak == "" {
		k.TeamTieBreak = TeamTieBreakBoardCount
	}
	return k
}

// NumberingInEffect is the numbering the pairing applies: the round-robin
// table's (S-1) or an individual Swiss's pairing numbers (P-3). An event
// stored before the option read NumberingRegistration and still does (new
// Swiss events are created with NumberingRating); "" for other systems.
func (s Settings) NumberingInEffect() string {
	switch {
	case s.System != RoundRobin && s.System != DoubleRoundRobin && !swissNumbered(s):
		return ""
	case s.Numbering == "":
		return NumberingRegistration
	}
	return s.Numbering
}

// swissNumbered reports whether the event pairs individuals with the
// Swiss system and so numbers them for round 1 (P-3).
func swissNumbered(s Settings) bool { return isSwiss(s.System) && !s.Teams }

// tieBreakControl is the preset of the event's additional rapid games (S-3).
func tieBreakControl(t *Tournament) string {
	if tb := t.Settings.KnockoutInEffect().TieBreak; tb != "" {
		return tb
	}
	return knockout.DefaultTieBreakTimeControl
}

// gfReset says whether a double elimination plays a grand-final reset.
func gfReset(t *Tournament) bool {
	return t.Settings.Knockout.Reset == nil || *t.Settings.Knockout.Reset
}

// finalsStage is the knockout after a swissKnockout event's Swiss (S-4).
func finalsStage(t *Tournament) combined.KnockoutStage {
	if t.Settings.Knockout.Finalists == 4 {
		return combined.TopFour
	}
	return combined.TopTwo
}

// DrawSeed is the seed of a round robin's numbering lot (NumberingDraw): the
// first 16 bytes of SHA-256("numbering/" + tournament id) as the two words
// of a PCG generator (little endian), which then shuffles the players in
// registration order with math/rand/v2's Shuffle. An arbiter can replay it.
func DrawSeed(tid string) (uint64, uint64) {
	sum := sha256.Sum256([]byte("numbering/" + tid))
	return binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])
}

// RoundRobinOrder lists the players by their number in the round-robin
// table (S-1): element i holds number i+1. It is recomputed from what is
// stored rather than stored itself: a round robin takes no entries once
// round 1 is paired, a withdrawn player keeps their number, and registration
// numbers, ratings and the tournament id never change — so round 1, every
// later round, a retry and the standings all read the same numbers.
//
// S-6 (001 §14.4 在比赛开始前退出，如系循环制…应重新抽签; 000 ch.2 §2.1): a
// player who withdrew before round 1 was paired is not in the table at all —
// the others are renumbered (with NumberingDraw the lot is drawn again over
// them) and the table is the one for the remaining field.
func RoundRobinOrder(t *Tournament, players []*Player) []*Player {
	out := make([]*Player, 0, len(players))
	for _, p := range players {
		if p.Status != Withdrawn || p.WithdrawnAfter > 0 {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	switch t.Settings.Numbering {
	case NumberingRating:
		sort.SliceStable(out, func(i, j int) bool { return out[i].Rating > out[j].Rating })
	case NumberingDraw:
		ids := make([]string, len(out))
		byID := make(map[string]*Player, len(out))
		for i, p := range out {
			ids[i], byID[p.ID] = p.ID, p
		}
		drawn := roundrobin.ByDraw(ids, rand.New(rand.NewPCG(DrawSeed(t.ID))))
		for i, id := range drawn {
			out[i] = byID[id]
		}
	}
	return out
}
