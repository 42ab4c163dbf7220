package httpapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

var (
	han     = regexp.MustCompile(`\p{Han}`)
	english = regexp.MustCompile(`\b(chose|first|round|table|match|bracket|lowest|group|colours|changed|slot)\b`)
)

type explainedRound struct {
	Language string
	Pairings []struct {
		Table       int
		Explanation *struct{ Opponent, OpponentReason string }
	}
	ByeExplanation *struct{ Opponent string }
}

func explained(t *testing.T, s *apitest.Server, path, lang string) explainedRound {
	t.Helper()
	var out explainedRound
	h := map[string]string{}
	if lang != "" {
		h["Accept-Language"] = lang
	}
	s.Do(apitest.Req{Method: http.MethodGet, Path: path + "?explain=true", Header: h}).Want(t, http.StatusOK).Decode(t, &out)
	return out
}

// Pairing explanations are in one language per response: Chinese by
// default, English when Accept-Language puts it first — for a Swiss round
// with a bye and an organiser's change, a round robin and a knockout.
func TestExplanations_OneLanguagePerResponse(t *testing.T) {
	s := apitest.New(t)
	var paths []string
	sw := newField(t, s, `{"name":"Swiss","system":"swiss","rounds":3}`, 7)
	r1 := sw.pair(t, s, nil, http.StatusCreated)
	sw.finishRound(t, s, r1, nil)
	sw.pair(t, s, nil, http.StatusCreated)
	s.Post("/tournaments/"+sw.ev.ID+"/rounds/2/changes", sw.ev.Token, `{"action":"swapColours","table":1,"note":"请求"}`).Want(t, http.StatusOK)
	paths = append(paths, "/tournaments/"+sw.ev.ID+"/rounds/1", "/tournaments/"+sw.ev.ID+"/rounds/2")
	for _, system := range []string{"roundRobin", "knockout"} {
		f := newField(t, s, `{"name":"`+system+`","system":"`+system+`"}`, 4)
		f.pair(t, s, nil, http.StatusCreated)
		paths = append(paths, "/tournaments/"+f.ev.ID+"/rounds/1")
	}
	for _, path := range paths {
		for _, tc := range []struct{ header, want string }{{"", "zh"}, {"zh-CN", "zh"}, {"en-GB,en;q=0.9,zh;q=0.5", "en"}, {"fr, en;q=0.3", "en"}} {
			r := explained(t, s, path, tc.header)
			if r.Language != tc.want {
				t.Errorf("%s with Accept-Language %q: language %q, want %q", path, tc.header, r.Language, tc.want)
			}
			texts := []string{}
			for _, p := range r.Pairings {
				if p.Explanation == nil || p.Explanation.Opponent == "" {
					t.Fatalf("%s table %d: no explanation", path, p.Table)
				}
				texts = append(texts, p.Explanation.Opponent)
			}
			if r.ByeExplanation != nil {
				texts = append(texts, r.ByeExplanation.Opponent)
			}
			for _, text := range texts {
				if tc.want == "zh" && (!han.MatchString(text) || english.MatchString(text)) {
					t.Errorf("%s (%s): not Chinese: %q", path, tc.want, text)
				}
				if tc.want == "en" && han.MatchString(strings.ReplaceAll(text, "请求", "")) {
					t.Errorf("%s (%s): not English: %q", path, tc.want, text)
				}
			}
		}
	}
}

// A knockout's additional rapid game is explained in the reader's language
// from what the pairing knows (S-3): the tie in words (决赛, "the final"),
// which game of which two-game rapid match, and the time control in words —
// never the tie's internal id or the preset's name.
func TestExplanations_RapidGameInWords(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Cup","system":"knockout","timeControl":"60/30+10/10"}`, 2)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	decide(t, s, f.ev.Token, r1.Pairings[0].GameID, "1/2-1/2") // the drawn final's rapid game is added with the result
	want := map[string][]string{
		"zh": {"决赛常规对局战平：附加快棋第1场第1局，时限每方10分钟走40步，此后每5分钟走30步（S-3）", "淘汰赛决赛：上签位对下签位（S-3）"},
		"en": {"the final level after the regular games: additional rapid match 1, game 1, at 10 minutes each for 40 moves, then 5 minutes for every 30 moves (S-3)",
			"the final: upper slot v lower slot (S-3)"},
	}
	for lang, texts := range want {
		r := explained(t, s, "/tournaments/"+f.ev.ID+"/rounds/1", lang)
		if len(r.Pairings) != 2 || r.Pairings[1].Explanation == nil || r.Pairings[0].Explanation == nil {
			t.Fatalf("%s: the drawn final has no explained rapid game: %+v", lang, r.Pairings)
		}
		if got := r.Pairings[1].Explanation.Opponent; got != texts[0] {
			t.Errorf("%s rapid game: %q, want %q", lang, got, texts[0])
		}
		if got := r.Pairings[0].Explanation.Opponent; got != texts[1] {
			t.Errorf("%s first game: %q, want %q", lang, got, texts[1])
		}
		for _, pr := range r.Pairings {
			if o := pr.Explanation.Opponent; strings.Contains(o, "rapid-") || regexp.MustCompile(`\b(F|R\d+-\d+)\b`).MatchString(o) {
				t.Errorf("%s: an internal id in %q", lang, o)
			}
		}
	}
}
