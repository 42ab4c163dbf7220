package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// BenchmarkExportImportBigEvent exports a 10,000-player Swiss after three
// rounds (XQ_BENCH_PLAYERS for a smaller field) in pages of the default
// size and imports them in parts into another stack, end to end over HTTP
// through the harness that refuses what Lambda would (a page over 6 MB as
// Lambda encodes it is a 502 and fails the run). It reports the pages, the
// largest page as Lambda encodes it and the export's items.
func BenchmarkExportImportBigEvent(b *testing.B) {
	n, played := benchPlayers(10_000), 3
	h := playBigSwiss(b, n, played, 11)
	src := apitest.New(b)
	var ev struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	src.Post("/tournaments", "", `{"name":"Mass Open","rounds":11}`).Want(b, http.StatusCreated).Decode(b, &ev)
	h.store(b, src, ev.ID)
	var pages, largest, items int
	var lastPart time.Duration
	for b.Loop() {
		dst := apitest.New(b)
		pages, largest, items = 0, 0, 0
		token := ""
		for path := "/tournaments/" + ev.ID + "/export"; path != ""; pages++ {
			r := src.Do(apitest.Req{Method: "GET", Path: path, Token: ev.Token}).Want(b, http.StatusOK)
			size, err := httpapi.LambdaResponseSize(r.Status, r.Header, r.Body)
			if err != nil {
				b.Fatal(err)
			}
			largest = max(largest, size)
			items += bytes.Count(r.Body, []byte("\n")) - 1
			var head struct{ Next string }
			if err := json.Unmarshal(r.Body[:bytes.IndexByte(r.Body, '\n')], &head); err != nil {
				b.Fatal(err)
			}
			path = head.Next
			want := http.StatusAccepted
			if path == "" {
				want = http.StatusCreated
			}
			began := time.Now()
			imp := dst.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: r.Body, Token: token, Header: ndjson}).Want(b, want)
			if path == "" { // the last part checks the whole export and creates the event
				lastPart = time.Since(began)
			}
			if pages == 0 {
				var begun struct {
					ImportToken string `json:"importToken"`
				}
				imp.Decode(b, &begun)
				token = begun.ImportToken
			}
		}
		dst.Get("/tournaments/"+ev.ID).Want(b, http.StatusOK)
	}
	if pages < 2 && n >= 10_000 {
		b.Fatalf("a %d-player event exported in %d page", n, pages)
	}
	b.ReportMetric(float64(pages), "pages")
	b.ReportMetric(float64(largest), "largest-page-B")
	b.ReportMetric(float64(items), "items")
	b.ReportMetric(float64(lastPart.Milliseconds()), "last-part-ms")
	fmt.Fprintf(b.Output(), "%d players, %d rounds: %d items in %d pages, largest %d bytes as Lambda encodes it; the last part took %v\n", n, played, items, pages, largest, lastPart)
}
