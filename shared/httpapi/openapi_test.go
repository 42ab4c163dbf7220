package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/standings"
)

// Every route of the route table is in the OpenAPI document with the statuses
// any request may meet (API.md): 429 and 503 with Retry-After when the store
// throttles or fails, 500; and for every POST, which may carry an
// Idempotency-Key, 400 (a key not a UUID), 409 (the key's first request still
// running), 413 and 422 (the key reused with another body); a route that
// needs a token documents 401 and 403.
func TestOpenAPIDocumentsEveryRouteAndStatus(t *testing.T) {
	doc, err := httpapi.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range httpapi.Routes {
		item := doc.Paths.Find(rt.Path)
		if item == nil || item.GetOperation(rt.Method) == nil {
			t.Errorf("%s %s is not in the OpenAPI document", rt.Method, rt.Path)
			continue
		}
		op := item.GetOperation(rt.Method)
		want := []int{429, 500, 503}
		if rt.Method == http.MethodPost {
			want = append(want, 400, 409, 413, 422)
		}
		if rt.Who != "public" && rt.Who != "anyone" {
			want = append(want, 401)
		}
		if rt.Who != "public" && rt.Who != "anyone" && rt.Who != "any token" {
			want = append(want, 403)
		}
		for _, status := range want {
			resp := op.Responses.Status(status)
			if resp == nil {
				t.Errorf("%s %s: status %d not documented", rt.Method, rt.Path, status)
				continue
			}
			if (status == 429 || status == 503) && resp.Value.Headers["Retry-After"] == nil {
				t.Errorf("%s %s: %d without its Retry-After header", rt.Method, rt.Path, status)
			}
		}
		if rt.Method == http.MethodPost {
			found := false
			for _, p := range op.Parameters {
				found = found || strings.EqualFold(p.Value.Name, "Idempotency-Key")
			}
			if !found {
				t.Errorf("%s %s: no Idempotency-Key parameter", rt.Method, rt.Path)
			}
		}
	}
}

// The document carries its licence; every operation says how it is
// authorised — security: [] on public routes, the bearer scheme on the
// others; and the enums name exactly what the code writes.
func TestOpenAPI_SecurityLicenceAndEnums(t *testing.T) {
	doc, err := httpapi.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	if doc.Info.License == nil || doc.Info.License.Name != "Apache-2.0" {
		t.Errorf("info.license: %+v", doc.Info.License)
	}
	for _, rt := range httpapi.Routes {
		op := doc.Paths.Find(rt.Path).GetOperation(rt.Method)
		switch {
		case op.Security == nil:
			t.Errorf("%s %s: no security", rt.Method, rt.Path)
		case rt.Who == "public" || rt.Who == "anyone":
			if len(*op.Security) != 0 {
				t.Errorf("%s %s is %s, yet its security is %v", rt.Method, rt.Path, rt.Who, *op.Security)
			}
		case len(*op.Security) != 1 || (*op.Security)[0]["bearer"] == nil:
			t.Errorf("%s %s needs a token (%s), yet its security is %v", rt.Method, rt.Path, rt.Who, *op.Security)
		}
	}
	var reasons []any
	for r := game.Reason(1); r.String() != ""; r++ {
		reasons = append(reasons, r.String())
	}
	if got := doc.Components.Schemas["ResultReason"].Value.Enum; !slices.Equal(got, reasons) {
		t.Errorf("ResultReason enum %v, want the game's reasons %v", got, reasons)
	}
	for _, c := range doc.Components.Schemas["Criterion"].Value.Enum {
		_, ierr := standings.ParseChain([]string{c.(string)})
		_, terr := standings.ParseTeamChain([]string{c.(string)})
		places := []standings.Criterion{standings.PlaceSum, standings.BestPlace, standings.SecondBestPlace} // R-9's chain, computed, never asked for
		if ierr != nil && terr != nil && !slices.Contains(places, standings.Criterion(c.(string))) {
			t.Errorf("Criterion %q is no criterion: %v", c, ierr)
		}
	}
}
