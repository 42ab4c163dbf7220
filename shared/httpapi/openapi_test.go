package httpapi_test

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/standings"
)

// Every route of the route table is in the OpenAPI document with the statuses
// any request may meet (the OpenAPI document): 429 and 503 with Retry-After when the store
// throttles or fails, 500; and for every POST, which may carry an
// Idempotency-Key, 400 (a key not a UUID), 409 (the key's first request still
// running), 413 and 422 (the key reused with another body); a route that
// needs a token or a creation key documents 401 and 403, and a route with an
// id in its path 400 (bad_id); every POST documents 415 (a body not sent as
// JSON).
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
			want = append(want, 400, 409, 413, 415, 422)
		}
		if !rt.Who.Has(httpapi.RolePublic) {
			want = append(want, 401) // "anyone": a server with a creation key needs it
		}
		if !rt.Who.Has(httpapi.RolePublic) && !rt.Who.Has(httpapi.RoleAnyToken) {
			want = append(want, 403) // GET /me: any valid token is itself
		}
		if rt.Function != httpapi.FnWeb && strings.ContainsAny(rt.Path, "{") && regexp.MustCompile(`\{(tid|gid|pid|mid|oid)\}`).MatchString(rt.Path) {
			want = append(want, 400) // an id not of the server's form: bad_id (a page reads nothing: any id gets the shell)
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

// The Reason schema lists exactly the reasons the game knows, so a client
// and the 400 for an unknown reason agree.
func TestOpenAPIReasonEnumIsTheGames(t *testing.T) {
	doc, err := httpapi.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range doc.Components.Schemas["Reason"].Value.Enum {
		if s, ok := v.(string); ok {
			got = append(got, s)
		}
	}
	if want := game.ReasonNames(); !slices.Equal(got, want) {
		t.Fatalf("Reason enum %v, want %v", got, want)
	}
}

// The document carries its licence; every operation says how it is
// authorised — security: [] on public routes, the bearer scheme on the
// others; and the criteria enum names what the standings write.
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
		case !rt.Who.NeedsToken():
			if len(*op.Security) != 0 {
				t.Errorf("%s %s is %s, yet its security is %v", rt.Method, rt.Path, rt.Who, *op.Security)
			}
		case len(*op.Security) != 1 || (*op.Security)[0]["bearer"] == nil:
			t.Errorf("%s %s needs a token (%s), yet its security is %v", rt.Method, rt.Path, rt.Who, *op.Security)
		}
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
