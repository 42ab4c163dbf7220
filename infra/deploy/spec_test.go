package deploy_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/awslabs/goformation/v7/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Every resource of template.yaml is valid against the CloudFormation and
// SAM resource specification as goformation ships it (schema.SamSchema, a
// JSON Schema generated from AWS's resource specification): known types
// only, no unknown or misspelt property, required properties present,
// values of the right types and enumerations. This replaces a cfn-lint run
// that CI never had the tool for, so it always skipped.
//
// Two adjustments, both to what the specification cannot express: an
// intrinsic function ({"Ref": …}, {"Fn::GetAtt": …}, {"Fn::Sub": …}) stands
// for a value of any type, as CloudFormation resolves it at deploy time;
// and the HTTP API's RouteSettings, which SAM takes as a map from route key
// to settings where the specification has one settings object, is left out
// here (TestTemplate_CreationThrottles checks it from the raw template).
func TestTemplate_ResourceSpecification(t *testing.T) {
	validate := specValidator(t)
	resources, _ := raw(t)["Resources"].(map[string]any)
	if len(resources) == 0 {
		t.Fatal("template.yaml has no resources")
	}
	for _, id := range slices.Sorted(maps.Keys(resources)) {
		res := resources[id].(map[string]any)
		if typ, _ := res["Type"].(string); typ == "AWS::Serverless::HttpApi" {
			if props, ok := res["Properties"].(map[string]any); ok {
				delete(props, "RouteSettings")
			}
		}
		if err := validate(res); err != nil {
			t.Errorf("resource %s: %v", id, err)
		}
	}
}

// The check refuses what cfn-lint would: a misspelt property, a value of
// the wrong type or outside its enumeration, an event of no known shape, a
// missing required property, an unknown resource type.
func TestTemplate_ResourceSpecificationRefuses(t *testing.T) {
	validate := specValidator(t)
	fn := func() map[string]any {
		res, _ := raw(t)["Resources"].(map[string]any)["Games"].(map[string]any)
		if res == nil {
			t.Fatal("no Games function in template.yaml")
		}
		return res
	}
	if err := validate(fn()); err != nil {
		t.Fatalf("the Games function itself: %v", err)
	}
	cases := map[string]func(res map[string]any){
		"misspelt property": func(res map[string]any) { res["Properties"].(map[string]any)["MemorySizee"] = 512 },
		"wrong type":        func(res map[string]any) { res["Properties"].(map[string]any)["Timeout"] = "thirty" },
		"bad enumeration":   func(res map[string]any) { res["DeletionPolicy"] = "Archive" },
		"misplaced event": func(res map[string]any) {
			res["Properties"].(map[string]any)["Events"] = map[string]any{"E": map[string]any{"Type": "HttpApi", "Properties": map[string]any{"Route": "/x"}}}
		},
		"unknown type": func(res map[string]any) { res["Type"] = "AWS::Serverless::Lambda" },
		"no type":      func(res map[string]any) { delete(res, "Type") },
	}
	for name, spoil := range cases {
		res := fn()
		spoil(res)
		if err := validate(res); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	q := map[string]any{"Type": "AWS::SQS::QueuePolicy", "Properties": map[string]any{"Queues": []any{"q"}}}
	if err := validate(q); err == nil {
		t.Error("a QueuePolicy without its required PolicyDocument: accepted")
	}
}

// specValidator compiles, from goformation's specification, the definitions
// of the resource types template.yaml uses and all they refer to (a few
// hundred of its ~10,000; compiling them all takes minutes), each scalar
// type widened to accept an intrinsic function. The validator it returns
// checks one resource ({"Type": …, "Properties": …}).
func specValidator(t *testing.T) func(res map[string]any) error {
	t.Helper()
	var spec struct {
		Definitions map[string]any `json:"definitions"`
	}
	if err := json.Unmarshal([]byte(schema.SamSchema), &spec); err != nil {
		t.Fatal(err)
	}
	defs := map[string]any{}
	var need func(name string)
	var refs func(n any)
	refs = func(n any) {
		switch v := n.(type) {
		case map[string]any:
			for k, c := range v {
				if r, ok := c.(string); ok && k == "$ref" {
					need(strings.TrimPrefix(r, "#/definitions/"))
				}
				refs(c)
			}
		case []any:
			for _, c := range v {
				refs(c)
			}
		}
	}
	need = func(name string) {
		if _, ok := defs[name]; ok {
			return
		}
		if d, ok := spec.Definitions[name]; ok {
			defs[name] = d
			refs(d)
		}
	}
	resources, _ := raw(t)["Resources"].(map[string]any)
	for _, res := range resources {
		typ, _ := res.(map[string]any)["Type"].(string)
		need(typ)
	}
	need("AWS::SQS::QueuePolicy") // TestTemplate_ResourceSpecificationRefuses uses it
	for name, d := range defs {
		defs[name] = allowIntrinsics(d)
	}
	defs[intrinsicDef] = map[string]any{
		"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": false,
		"patternProperties": map[string]any{"^(Ref|Condition|Fn::[A-Za-z]+)$": map[string]any{}},
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("spec.json", map[string]any{"definitions": defs}); err != nil {
		t.Fatal(err)
	}
	compiled := map[string]*jsonschema.Schema{}
	return func(res map[string]any) error {
		typ, _ := res["Type"].(string)
		if typ == "" {
			return fmt.Errorf("no Type")
		}
		if _, ok := spec.Definitions[typ]; !ok {
			return fmt.Errorf("%s is not a type of the resource specification", typ)
		}
		sch, ok := compiled[typ]
		if !ok {
			var err error
			if sch, err = c.Compile("spec.json#/definitions/" + typ); err != nil {
				return fmt.Errorf("compile %s: %w", typ, err)
			}
			compiled[typ] = sch
		}
		// Validate takes JSON's own values (json.Number for numbers).
		js, err := json.Marshal(res)
		if err != nil {
			return err
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(js)))
		if err != nil {
			return err
		}
		return sch.Validate(inst)
	}
}

const intrinsicDef = "xqtour::Intrinsic"

// allowIntrinsics rewrites a schema so that wherever it wants a string,
// number, boolean or array, an intrinsic function is accepted too.
func allowIntrinsics(n any) any {
	switch v := n.(type) {
	case map[string]any:
		for k, c := range v {
			switch k {
			case "enum", "required", "type":
				// values, not schemas
			case "properties", "patternProperties", "definitions":
				if m, ok := c.(map[string]any); ok {
					for name, sub := range m {
						m[name] = allowIntrinsics(sub)
					}
				}
			default:
				v[k] = allowIntrinsics(c)
			}
		}
		if typ, ok := v["type"].(string); ok && typ != "object" {
			return map[string]any{"anyOf": []any{v, map[string]any{"$ref": "#/definitions/" + intrinsicDef}}}
		}
		return v
	case []any:
		for i, c := range v {
			v[i] = allowIntrinsics(c)
		}
	}
	return n
}
