package httptransport

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestPost checks what another stack is sent (the content type, the
// headers that have a value, the body) and what its error answer becomes.
func TestPost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-ndjson" ||
			r.Header.Get("Authorization") != "Bearer mirror.t.x" || r.Header.Values("X-Creation-Key") != nil || string(body) != "{}\n" {
			w.WriteHeader(http.StatusTeapot)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		_, _ = io.WriteString(w, `{"error":{"code":"mirror_exists","message":"already a copy"}}`)
	}))
	defer srv.Close()
	ans, err := New().Post(context.Background(), srv.URL+"/tournaments/t/mirror/changes", "application/x-ndjson",
		map[string]string{"Authorization": "Bearer mirror.t.x", "X-Creation-Key": ""}, []byte("{}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ans.Status != http.StatusConflict || ans.Code != "mirror_exists" || ans.Message != "already a copy" {
		t.Fatalf("answer %d %q %q, want 409 mirror_exists", ans.Status, ans.Code, ans.Message)
	}
}
