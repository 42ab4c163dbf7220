package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// A round's explanations are written in the language Accept-Language asks
// for, so its answer says Vary: Accept-Language: without it a browser's
// cache could hand a Chinese reader the English answer it kept for an
// earlier request, whether the round is read from the event or from its
// kept response view.
func TestRound_VariesByAcceptLanguage(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Swiss","system":"swiss","rounds":3}`, 6)
	f.pair(t, s, nil, http.StatusCreated)
	path := "/tournaments/" + f.ev.ID + "/rounds/1"
	for _, query := range []string{"?explain=true", "?explain=true", "", ""} { // a first read, then a kept one
		for _, lang := range []string{"zh-CN", "en"} {
			res := s.Do(apitest.Req{Method: http.MethodGet, Path: path + query, Header: map[string]string{"Accept-Language": lang}}).Want(t, http.StatusOK)
			if !slices.ContainsFunc(res.Header.Values("Vary"), func(v string) bool { return strings.Contains(v, "Accept-Language") }) {
				t.Fatalf("GET %s%s (%s): Vary %q, want it to name Accept-Language", path, query, lang, res.Header.Values("Vary"))
			}
		}
	}
}
