package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
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
// the request asks for, and says which (service.RoundView.In).
func localizeRound(out service.RoundView, r *http.Request) service.RoundView {
	return out.In(tournament.Language(explainLanguage(r)))
}
