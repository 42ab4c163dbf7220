package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// fromAddress is a client whose connections leave from the loopback address
// ip (Linux answers all of 127.0.0.0/8): another caller than the default one.
func fromAddress(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// createWithKey is POST /tournaments from client with an Idempotency-Key: the
// status, whether it was replayed, and the organiser token answered.
func createWithKey(t *testing.T, s *apitest.Server, client *http.Client, key, body string) (int, bool, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.URL+"/tournaments", bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var out struct{ Token string }
	_ = json.Unmarshal(data, &out)
	return res.StatusCode, res.Header.Get("Idempotent-Replayed") == "true", out.Token
}

// Point 10 of issue #24: an anonymous creation's answer holds the new
// event's organiser token, and anonymous replays were scoped by the key
// alone, so a second caller presenting the same key and body received the
// first caller's token. Now an anonymous key is scoped to the caller's
// address too: the same caller's retry is replayed (no second event), a
// stranger's request with the same key is served afresh, its own event and
// token, and never the first answer.
func TestIdempotency_AnonymousReplayIsTheCallersOnly(t *testing.T) {
	s := apitest.New(t)
	const key = "0c7b9a3e-2f61-4d0a-8b5e-6a1f2c3d4e5f"
	body := `{"name":"Replay Open","rounds":3}`
	first, second := fromAddress("127.0.0.1"), fromAddress("127.0.0.2")
	status, replayed, tok1 := createWithKey(t, s, first, key, body)
	if status != http.StatusCreated || replayed || tok1 == "" {
		t.Fatalf("first creation: %d replayed=%v token %q", status, replayed, tok1)
	}
	status, replayed, again := createWithKey(t, s, first, key, body)
	if status != http.StatusCreated || !replayed || again != tok1 {
		t.Fatalf("the same caller's retry: %d replayed=%v, token %q want %q", status, replayed, again, tok1)
	}
	status, replayed, tok2 := createWithKey(t, s, second, key, body)
	if tok2 == tok1 || replayed {
		t.Fatalf("another caller with the same key got the first caller's answer (%d, replayed=%v): its organiser token", status, replayed)
	}
	if status != http.StatusCreated {
		t.Fatalf("another caller with the same key: %d, want its own creation", status)
	}
}
