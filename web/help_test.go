package web_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/web"
)

// TestHelp: /help lists the four handbooks and each is served, in its own
// language, with the rule ids it explains, no script, and the app's style
// sheet under its fingerprinted name; an unknown handbook is 404.
func TestHelp(t *testing.T) {
	h := newHandler(t, web.Options{})
	res, index := get(t, h, "/help")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/help: %d", res.StatusCode)
	}
	fingerprinted := regexp.MustCompile(`href="/assets/style\.[0-9a-f]{10}\.css"`)
	for _, name := range []string{"organiser.zh", "organiser.en", "arbiter.zh", "arbiter.en"} {
		if !strings.Contains(index, `href="/help/`+name+`"`) {
			t.Errorf("/help does not link %s", name)
		}
		res, body := get(t, h, "/help/"+name)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", name, res.StatusCode)
			continue
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
			t.Errorf("%s: CSP %q", name, csp)
		}
		if strings.Contains(body, "<script") {
			t.Errorf("%s runs a script", name)
		}
		if !fingerprinted.MatchString(body) {
			t.Errorf("%s: the style sheet is not the fingerprinted one", name)
		}
		for _, id := range []string{"O-1", "C-1", "C-4", "D-1", "P-12"} {
			if !strings.Contains(body, id) {
				t.Errorf("%s does not explain rule %s", name, id)
			}
		}
		zh := strings.HasSuffix(name, ".zh")
		if hasHan := regexp.MustCompile(`\p{Han}{8,}`).MatchString(body); hasHan != zh {
			t.Errorf("%s: Chinese prose %v, want %v", name, hasHan, zh)
		}
	}
	if res, _ := get(t, h, "/help/nothing"); res.StatusCode != http.StatusNotFound {
		t.Errorf("/help/nothing: %d", res.StatusCode)
	}
}
