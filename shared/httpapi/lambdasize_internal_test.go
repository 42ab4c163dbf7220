package httpapi

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// serveLimited runs h behind lambdaLimit, as Handler does, over real HTTP.
func serveLimited(t *testing.T, h http.HandlerFunc) (*http.Response, []byte) {
	t.Helper()
	srv := httptest.NewServer(lambdaLimit(h, slog.New(slog.NewTextHandler(io.Discard, nil))))
	t.Cleanup(srv.Close)
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

func want502(t *testing.T, res *http.Response, body []byte) {
	t.Helper()
	if res.StatusCode != http.StatusBadGateway || string(body) != `{"message":"Internal Server Error"}` || res.Header.Get(LimitHeader) == "" {
		t.Fatalf("got %d %q (%s: %q), want API Gateway's 502 with the limit named", res.StatusCode, body[:min(len(body), 80)], LimitHeader, res.Header.Get(LimitHeader))
	}
}

// A JSON body under 6 MB can be over Lambda's limit as Lambda counts it:
// the proxy puts it in a JSON string, where every quote is escaped.
func TestLambdaLimit_ResponseOver6MBAsEncodedIs502(t *testing.T) {
	body := []byte("[" + strings.Repeat(`"ab",`, 1_000_000) + `"ab"]`) // 5 MB, 2 M quotes
	size, err := LambdaResponseSize(http.StatusOK, http.Header{"Content-Type": {"application/json"}}, body)
	if err != nil {
		t.Fatal(err)
	}
	if len(body) >= MaxLambdaResponse || size <= MaxLambdaResponse {
		t.Fatalf("body %d bytes, %d as Lambda encodes it: want under and over %d", len(body), size, MaxLambdaResponse)
	}
	res, got := serveLimited(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	want502(t, res, got)
	if !strings.Contains(res.Header.Get(LimitHeader), "Function.ResponseSizeTooLarge") {
		t.Errorf("%s: %q", LimitHeader, res.Header.Get(LimitHeader))
	}
}

// A body that is not UTF-8 goes base64-encoded: 4.8 MB become 6.4 MB.
func TestLambdaLimit_BinaryBodyCountsBase64(t *testing.T) {
	body := bytes.Repeat([]byte{0xff, 0xfe, 0x00}, 1_600_000)
	res, got := serveLimited(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(body)
	})
	want502(t, res, got)
}

// A response within the limit passes unchanged: status, every header value, body.
func TestLambdaLimit_ResponseWithinTheLimitPassesUnchanged(t *testing.T) {
	body := bytes.Repeat([]byte("x"), MaxLambdaResponse-1000)
	res, got := serveLimited(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Add("Vary", "Accept")
		w.Header().Add("Vary", "Accept-Language")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(body)
	})
	if res.StatusCode != http.StatusCreated || !bytes.Equal(got, body) || res.Header.Get(LimitHeader) != "" {
		t.Fatalf("got %d, %d bytes, limit %q", res.StatusCode, len(got), res.Header.Get(LimitHeader))
	}
	if v := res.Header.Values("Vary"); len(v) != 2 {
		t.Fatalf("Vary %v, want both values", v)
	}
}

// A handler that writes nothing: the proxy cannot build a response (no
// status), the invocation fails, API Gateway answers 502.
func TestLambdaLimit_NoStatusIs502(t *testing.T) {
	res, got := serveLimited(t, func(http.ResponseWriter, *http.Request) {})
	want502(t, res, got)
}

// What measuring costs the local stack on a large JSON answer (a 10,000-player
// standings is about 5 MB): one pass of the proxy's encoding, nothing kept.
func BenchmarkLambdaResponseSize_5MB(b *testing.B) {
	body := []byte("[" + strings.Repeat(`{"rank":1,"name":"Player"},`, 190_000) + "{}]")
	header := http.Header{"Content-Type": {"application/json"}}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := LambdaResponseSize(http.StatusOK, header, body); err != nil {
			b.Fatal(err)
		}
	}
}
