package httpapi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/tournament"
)

// Pairing explanations come in one language per response: Chinese, the
// rule books' language, by default, English when Accept-Language asks for it
// first. The sentences are the core's (tournament.Explanation.In); here the
// language is read from the request and the round view rendered in it.

// explainLanguage reads Accept-Language: the first of zh or en by quality;
// zh when neither is asked for.
func explainLanguage(r *http.Request) string {
	best, bestQ := tournament.Chinese, -1.0
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		lang := strings.ToLower(strings.TrimSpace(tag))
		lang, _, _ = strings.Cut(lang, "-")
		if l := tournament.Language(lang); (l == tournament.Chinese || l == tournament.English) && q > bestQ && q > 0 {
			best, bestQ = l, q
		}
	}
	return string(best)
}

// localizeRound renders every explanation of a round view in the language
// the request asks for, and says which.
func localizeRound(out roundOut, r *http.Request) roundOut {
	lang := tournament.Language(explainLanguage(r))
	one := func(e *explanationOut) *explanationOut {
		if e == nil {
			return nil
		}
		te := tournament.Explanation{ScoreGroup: e.ScoreGroup, Opponent: e.Opponent, OpponentReason: e.OpponentReason, ColourReason: e.ColourReason}.In(lang)
		return explanationView(te)
	}
	found := out.ByeExplanation != nil
	out.Pairings = slices.Clone(out.Pairings)
	for i := range out.Pairings {
		found = found || out.Pairings[i].Explanation != nil
		out.Pairings[i].Explanation = one(out.Pairings[i].Explanation)
	}
	out.ByeExplanation = one(out.ByeExplanation)
	out.Matches = slices.Clone(out.Matches)
	for i := range out.Matches {
		found = found || out.Matches[i].Explanation != nil
		out.Matches[i].Explanation = one(out.Matches[i].Explanation)
	}
	if found {
		out.Language = string(lang)
	}
	return out
}
