package httpapi

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/store/storetest"
)

// A handler that panics answers 500 in the error model, leaks nothing of the
// panic, and gives its Idempotency-Key back so the client's retry is served.
func TestPanicIs500AndReleasesTheKey(t *testing.T) {
	st, _ := storetest.New(t)
	a := New(st, WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	calls := 0
	rt := Route{Method: "POST", Path: "/boom", Who: Roles{RoleAnyone}, handle: func(*API, *call) (int, any, error) {
		if calls++; calls == 1 {
			panic("secret internal detail")
		}
		return http.StatusCreated, map[string]any{"ok": true}, nil
	}}
	h := a.wrap(rt)
	send := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/boom", strings.NewReader(`{}`))
		req.Header.Set("Idempotency-Key", "b0b0b0b0-0000-4000-8000-000000000001")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	w := send()
	if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), `"code":"internal"`) || strings.Contains(w.Body.String(), "secret") {
		t.Fatalf("panic: %d %s", w.Code, w.Body)
	}
	if w := send(); w.Code != http.StatusCreated {
		t.Fatalf("retry after the panic: %d %s; want it served", w.Code, w.Body)
	}
}
