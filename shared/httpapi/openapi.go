package httpapi

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

//go:embed openapi.yaml
var openAPIYAML []byte

// AsyncAPI is the AsyncAPI 3 document of the live-updates WebSocket protocol
// (shared/live), served at GET /asyncapi.yaml.
//
//go:embed asyncapi.yaml
var AsyncAPI []byte

var openAPIDoc = sync.OnceValues(func() ([]byte, error) {
	doc, err := OpenAPI()
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
})

// OpenAPI returns the validated OpenAPI 3 document describing every route.
func OpenAPI() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openAPIYAML)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	return doc, nil
}

// GET /openapi.json — public.
func (a *API) openAPI(*call) (int, any, error) {
	doc, err := openAPIDoc()
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, raw{contentType: "application/json", data: doc}, nil
}

// GET /asyncapi.yaml — public.
func (a *API) asyncAPI(*call) (int, any, error) {
	return http.StatusOK, raw{contentType: "application/yaml", data: AsyncAPI}, nil
}
