package deploy_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/awslabs/goformation/v7"
	"github.com/awslabs/goformation/v7/cloudformation"
	"github.com/awslabs/goformation/v7/intrinsics"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/store"
)

var update = flag.Bool("update", false, "rewrite the generated block of template.yaml from httpapi.Routes")

// root is the repository root, relative to this package's directory (go test's cwd).
const root = "../.."

var templatePath = filepath.Join(root, "template.yaml")

// TestTemplateInSync holds the generated function block of template.yaml equal
// to what httpapi.Routes gives now; -update (make template) rewrites it.
func TestTemplateInSync(t *testing.T) {
	src, err := os.ReadFile(templatePath)
	if err != nil {
		t.Fatal(err)
	}
	want, err := deploy.Sync(src)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(src, want) {
		return
	}
	if *update {
		if err := os.WriteFile(templatePath, want, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("template.yaml rewritten from httpapi.Routes")
		return
	}
	t.Errorf("template.yaml's function block is stale against httpapi.Routes; run `make template` " +
		"(go test ./infra/deploy -run TestTemplateInSync -update)")
}

// TestTemplateInSyncSAMEnvLocal holds infra/sam/env.local.json (sam local start-api
// --env-vars) to one entry per function; -update rewrites it.
func TestTemplateInSyncSAMEnvLocal(t *testing.T) {
	path := filepath.Join(root, "infra", "sam", "env.local.json")
	want := deploy.EnvLocalJSON()
	var parsed map[string]map[string]string
	if err := json.Unmarshal(want, &parsed); err != nil || len(parsed) != len(httpapi.Functions) {
		t.Fatalf("EnvLocalJSON is not one JSON object per function: %v", err)
	}
	got, err := os.ReadFile(path)
	if err == nil && bytes.Equal(got, want) {
		return
	}
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("infra/sam/env.local.json rewritten from httpapi.Functions")
		return
	}
	t.Errorf("infra/sam/env.local.json is stale against httpapi.Functions (%v); run `make template`", err)
}

// typed parses template.yaml with goformation, which resolves intrinsic
// functions as far as it can offline (a Ref to a resource becomes null).
//
// goformation v7 models the HTTP API's RouteSettings as one settings object,
// where SAM (and API Gateway's stage) take a map from route key to settings,
// so the typed parse leaves RouteSettings out; TestTemplate_CreationThrottles
// reads it from the raw template.
func typed(t *testing.T) *cloudformation.Template {
	t.Helper()
	m := raw(t)
	if props, ok := dig(m, "Resources", deploy.ApiID, "Properties").(map[string]any); ok {
		delete(props, "RouteSettings")
	}
	js, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := goformation.ParseJSON(js)
	if err != nil {
		t.Fatalf("goformation: %v", err)
	}
	return tpl
}

// raw is template.yaml as a generic map with the intrinsic functions kept in
// their long form ({"Ref": x}, {"Fn::Sub": s}, …). The reference checks need
// the unresolved intrinsics, which the typed parse replaces by values.
func raw(t *testing.T) map[string]any {
	t.Helper()
	src, err := os.ReadFile(templatePath)
	if err != nil {
		t.Fatal(err)
	}
	js, err := intrinsics.ProcessYAML(src, &intrinsics.ProcessorOptions{NoProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// dig follows keys through nested maps; nil when any step is missing.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func ref(name string) map[string]any { return map[string]any{"Ref": name} }

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestTemplate_TransformIsSAM(t *testing.T) {
	tpl := typed(t)
	if tpl.Transform == nil || tpl.Transform.String == nil || *tpl.Transform.String != "AWS::Serverless-2016-10-31" {
		t.Errorf("Transform is not AWS::Serverless-2016-10-31")
	}
}

// Every function (httpapi.Functions, deploy.LiveFunctions and
// deploy.ScheduledFunctions) is a SAM function built by the root
// Makefile (CodeUri ".", BuildMethod makefile) from functions/<lower id>/main.go,
// and runs as bootstrap on provided.al2023/arm64 once the globals apply.
func TestTemplate_FunctionsRuntimeAndSource(t *testing.T) {
	tpl := typed(t)
	g, err := tpl.GetServerlessGlobalFunction()
	if err != nil {
		t.Fatalf("Globals.Function: %v", err)
	}
	fns := tpl.GetAllServerlessFunctionResources()
	for id := range fns {
		if !slices.Contains(deploy.AllFunctions(), id) {
			t.Errorf("function %s is in template.yaml but not in httpapi.Functions, deploy.LiveFunctions or deploy.ScheduledFunctions", id)
		}
	}
	for _, id := range deploy.AllFunctions() {
		f, ok := fns[id]
		if !ok {
			t.Errorf("httpapi.Functions lists %s but template.yaml has no AWS::Serverless::Function %s", id, id)
			continue
		}
		runtime := pick(f.Runtime, g.Runtime)
		handler := pick(f.Handler, g.Handler)
		arch := f.Architectures
		if arch == nil && g.Architectures != nil {
			arch = *g.Architectures
		}
		if runtime != "provided.al2023" || handler != "bootstrap" || !slices.Equal(arch, []string{"arm64"}) {
			t.Errorf("%s: runtime %q handler %q architectures %v, want provided.al2023, bootstrap, [arm64]", id, runtime, handler, arch)
		}
		timeout := pickInt(f.Timeout, g.Timeout)
		if want := deploy.TimeoutS[id]; want != 0 {
			if timeout != want {
				t.Errorf("%s: Timeout %d s, want deploy.TimeoutS's %d (its jobs run outside requests)", id, timeout, want)
			}
		} else if timeout < 1 || timeout > 29 {
			t.Errorf("%s: Timeout %d s, want 1…29 (API Gateway gives up at 30 s)", id, timeout)
		}
		if mem := pickInt(f.MemorySize, g.MemorySize); mem < 128 {
			t.Errorf("%s: MemorySize %d MB, want at least 128", id, mem)
		} else if want := deploy.MemoryMB[id]; want != 0 && mem != want {
			t.Errorf("%s: MemorySize %d MB, want deploy.MemoryMB's %d (measured by make bigevent)", id, mem, want)
		}
		if f.CodeUri == nil || f.CodeUri.String == nil || *f.CodeUri.String != "." {
			t.Errorf("%s: CodeUri must be \".\" so SAM runs the root Makefile's build-%s", id, id)
		}
		if bm := f.AWSCloudFormationMetadata["BuildMethod"]; bm != "makefile" {
			t.Errorf("%s: Metadata.BuildMethod %v, want makefile", id, bm)
		}
		main := filepath.Join(root, deploy.Dir(id), "main.go")
		src, err := os.ReadFile(main)
		if err != nil {
			t.Errorf("%s: source %v", id, err)
			continue
		}
		if !regexp.MustCompile(`(?m)^package main\b`).Match(src) {
			t.Errorf("%s: %s is not package main", id, main)
		}
	}
}

func pick(own, global *string) string {
	if own != nil {
		return *own
	}
	if global != nil {
		return *global
	}
	return ""
}

func pickInt(own, global *int) int {
	if own != nil {
		return *own
	}
	if global != nil {
		return *global
	}
	return 0
}

// Every function sees TABLE_NAME = the table and DYNAMODB_ENDPOINT empty
// (the regional endpoint), whether set globally or on the function; the
// endpoint is declared so that sam local's env-vars file may set it, and is
// no parameter, so `sam deploy --guided` does not ask for it.
func TestTemplate_FunctionEnvironment(t *testing.T) {
	m := raw(t)
	global, _ := dig(m, "Globals", "Function", "Environment", "Variables").(map[string]any)
	for _, id := range deploy.AllFunctions() {
		env := map[string]any{}
		for k, v := range global {
			env[k] = v
		}
		own, _ := dig(m, "Resources", id, "Properties", "Environment", "Variables").(map[string]any)
		for k, v := range own {
			env[k] = v
		}
		if !equalJSON(env["TABLE_NAME"], ref(deploy.TableID)) {
			t.Errorf("%s: TABLE_NAME is %v, want !Ref %s", id, env["TABLE_NAME"], deploy.TableID)
		}
		if v, ok := env["DYNAMODB_ENDPOINT"]; !ok || v != "" {
			t.Errorf("%s: DYNAMODB_ENDPOINT is %v (declared %v), want \"\"", id, v, ok)
		}
	}
}

// localOnly are settings only `sam local` or tests use; a guided deploy must
// not ask for them, so none is a template parameter.
var localOnly = []string{"DynamoDBEndpoint", "DYNAMODB_ENDPOINT", "Endpoint", "LocalTable"}

// sam deploy --guided asks for every parameter: each must be something a
// deployed stack needs, never a local-only setting.
func TestTemplate_GuidedDeployAsksOnlyForDeploySettings(t *testing.T) {
	m := raw(t)
	params, _ := m["Parameters"].(map[string]any)
	for name := range params {
		for _, l := range localOnly {
			if strings.EqualFold(name, l) {
				t.Errorf("parameter %s is local-only: set it in infra/sam/env.local.json instead", name)
			}
		}
	}
}

// pseudo are CloudFormation's pseudo parameters.
var pseudo = []string{"AWS::AccountId", "AWS::NotificationARNs", "AWS::NoValue", "AWS::Partition",
	"AWS::Region", "AWS::StackId", "AWS::StackName", "AWS::URLSuffix"}

// Every Ref, GetAtt, Sub variable and DependsOn names a resource, a parameter or
// a pseudo parameter (GetAtt: a resource).
func TestTemplate_ReferencesResolve(t *testing.T) {
	m := raw(t)
	resources, _ := m["Resources"].(map[string]any)
	params, _ := m["Parameters"].(map[string]any)
	isResource := func(n string) bool {
		if _, ok := resources[n]; ok {
			return true
		}
		// SAM makes <Function>Role for a function that names no role of its own.
		fn, ok := strings.CutSuffix(n, "Role")
		r, _ := resources[fn].(map[string]any)
		return ok && r["Type"] == "AWS::Serverless::Function" && dig(r, "Properties", "Role") == nil
	}
	refOK := func(n string) bool {
		_, isParam := params[n]
		return isParam || isResource(n) || slices.Contains(pseudo, n)
	}
	subVar := regexp.MustCompile(`\$\{([^!}][^}]*)\}`)
	var refs int
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, val := range x {
				switch k {
				case "Ref":
					refs++
					if n, _ := val.(string); !refOK(n) {
						t.Errorf("%s: Ref %v resolves to no resource, parameter or pseudo parameter", path, val)
					}
				case "Fn::GetAtt":
					refs++
					var target string
					switch a := val.(type) {
					case string:
						target, _, _ = strings.Cut(a, ".")
					case []any:
						if len(a) == 2 {
							target, _ = a[0].(string)
						}
					}
					if !isResource(target) {
						t.Errorf("%s: Fn::GetAtt %v names no resource", path, val)
					}
				case "Fn::Sub":
					refs++
					src, vars := "", map[string]any{}
					switch a := val.(type) {
					case string:
						src = a
					case []any:
						if len(a) == 2 {
							src, _ = a[0].(string)
							vars, _ = a[1].(map[string]any)
							walk(path+".Fn::Sub", a[1])
						}
					}
					for _, mm := range subVar.FindAllStringSubmatch(src, -1) {
						name := mm[1]
						if _, ok := vars[name]; ok {
							continue
						}
						if res, _, dotted := strings.Cut(name, "."); dotted {
							if !isResource(res) {
								t.Errorf("%s: Fn::Sub variable ${%s} names no resource", path, name)
							}
						} else if !refOK(name) {
							t.Errorf("%s: Fn::Sub variable ${%s} resolves to no resource, parameter or pseudo parameter", path, name)
						}
					}
				case "DependsOn":
					deps := []any{val}
					if a, ok := val.([]any); ok {
						deps = a
					}
					for _, d := range deps {
						if n, _ := d.(string); !isResource(n) {
							t.Errorf("%s: DependsOn %v names no resource", path, d)
						}
					}
				default:
					walk(path+"."+k, val)
				}
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("", m)
	if refs == 0 {
		t.Fatal("found no intrinsic function at all; the raw parse lost them")
	}
}

type route struct{ Method, Path, Function string }

func (r route) String() string { return r.Method + " " + r.Path + " → " + r.Function }

// The template's HttpApi events are exactly httpapi.Routes: no route without
// an event, no event without a route, each on the right function and API.
func TestTemplate_RoutesEqualRouteTable(t *testing.T) {
	tpl := typed(t)
	m := raw(t)
	var got []route
	for id, f := range tpl.GetAllServerlessFunctionResources() {
		for name, ev := range f.Events {
			if ev.Type == "Schedule" && slices.Contains(deploy.ScheduledFunctions, id) {
				continue // checked by TestTemplate_DueWork
			}
			if ev.Type != "HttpApi" {
				t.Errorf("%s event %s: type %s, want HttpApi", id, name, ev.Type)
				continue
			}
			if ev.Properties == nil || ev.Properties.HttpApiEvent == nil ||
				ev.Properties.HttpApiEvent.Method == nil || ev.Properties.HttpApiEvent.Path == nil {
				t.Errorf("%s event %s: no Method and Path", id, name)
				continue
			}
			e := ev.Properties.HttpApiEvent
			got = append(got, route{strings.ToUpper(*e.Method), *e.Path, id})
			// The typed parse resolves ApiId's Ref to null, so read it unresolved.
			if api := dig(m, "Resources", id, "Properties", "Events", name, "Properties", "ApiId"); !equalJSON(api, ref(deploy.ApiID)) {
				t.Errorf("%s event %s: ApiId %v, want !Ref %s (the API with CORS and throttling)", id, name, api, deploy.ApiID)
			}
		}
	}
	var want []route
	for _, rt := range httpapi.Routes {
		want = append(want, route{deploy.Method(rt), deploy.Path(rt.Path), rt.Function})
	}
	missing, extra := diff(want, got), diff(got, want)
	if len(missing)+len(extra) > 0 {
		t.Errorf("template.yaml's HttpApi events differ from httpapi.Routes (run `make template`):\n"+
			"  in httpapi.Routes, not in template.yaml:\n%s  in template.yaml, not in httpapi.Routes:\n%s",
			lines(missing), lines(extra))
	}
	if len(missing)+len(extra) == 0 && len(got) != len(want) {
		t.Errorf("template.yaml has %d events, httpapi.Routes %d routes (a duplicate on one side)", len(got), len(want))
	}
}

func diff(a, b []route) []route {
	var out []route
	for _, r := range a {
		if !slices.Contains(b, r) {
			out = append(out, r)
		}
	}
	return out
}

func lines(rs []route) string {
	if len(rs) == 0 {
		return "    (none)\n"
	}
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = "    " + r.String() + "\n"
	}
	sort.Strings(s)
	return strings.Join(s, "")
}

// Least privilege: a function whose routes all read gets DynamoDBReadPolicy
// only; one with any other method (POST writes aggregates and idempotency
// records, TransactWriteItems included) gets DynamoDBCrudPolicy. Either is
// scoped to the table and nothing else is granted.
func TestTemplate_LeastPrivilegePolicies(t *testing.T) {
	tpl := typed(t)
	m := raw(t)
	for _, id := range httpapi.Functions {
		f, err := tpl.GetServerlessFunctionWithName(id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		readOnly := true
		for _, rt := range httpapi.Routes {
			if rt.Function == id && rt.Method != "GET" && rt.Method != "HEAD" {
				readOnly = false
			}
		}
		// goformation's Policies union decodes a list of SAM policy templates
		// into every list shape it has (an IAM document without
		// DisallowUnknownFields accepts anything), so "nothing else granted" is
		// checked on the raw list and the template kind on the typed one.
		list, _ := dig(m, "Resources", id, "Properties", "Policies").([]any)
		want := 1
		if deploy.CountsUsage(id) {
			want = 3 // and the usage counters' and the views' statements, checked below
			if len(list) == 3 {
				checkUsagePolicy(t, id, list[1])
				checkViewsPolicy(t, id, list[2])
				list = list[:1]
			}
		}
		if len(list) != 1 {
			t.Errorf("%s: %d policies, want %d", id, len(list), want)
			continue
		}
		if f.Policies == nil || f.Policies.SAMPolicyTemplateArray == nil || len(*f.Policies.SAMPolicyTemplateArray) != want {
			t.Errorf("%s: the policy is not a SAM policy template", id)
			continue
		}
		p := (*f.Policies.SAMPolicyTemplateArray)[0]
		var kind string
		switch {
		case p.DynamoDBReadPolicy != nil && p.DynamoDBCrudPolicy == nil && p.DynamoDBWritePolicy == nil:
			kind = "DynamoDBReadPolicy"
		case p.DynamoDBCrudPolicy != nil && p.DynamoDBReadPolicy == nil && p.DynamoDBWritePolicy == nil:
			kind = "DynamoDBCrudPolicy"
		default:
			t.Errorf("%s: the policy is neither DynamoDBReadPolicy nor DynamoDBCrudPolicy alone: %v", id, list[0])
			continue
		}
		wantKind := "DynamoDBCrudPolicy"
		if readOnly {
			wantKind = "DynamoDBReadPolicy"
		}
		if kind != wantKind {
			t.Errorf("%s: %s, want %s (its routes %s)", id, kind, wantKind, map[bool]string{true: "only read", false: "write"}[readOnly])
		}
		if tn := dig(list[0], kind, "TableName"); !equalJSON(tn, ref(deploy.TableID)) {
			t.Errorf("%s: %s.TableName %v, want !Ref %s", id, kind, tn, deploy.TableID)
		}
	}
}

// The single table: PK/SK strings, on demand, point-in-time recovery, TTL on
// the attribute the store's idempotency records expire through.
func TestTemplate_Table(t *testing.T) {
	tpl := typed(t)
	tb, err := tpl.GetDynamoDBTableWithName(deploy.TableID)
	if err != nil {
		t.Fatalf("table %s: %v", deploy.TableID, err)
	}
	if tb.BillingMode == nil || *tb.BillingMode != "PAY_PER_REQUEST" {
		t.Errorf("BillingMode %v, want PAY_PER_REQUEST", tb.BillingMode)
	}
	keys := map[string]string{}
	for _, k := range tb.KeySchema {
		keys[k.AttributeName] = k.KeyType
	}
	if len(keys) != 2 || keys["PK"] != "HASH" || keys["SK"] != "RANGE" {
		t.Errorf("KeySchema %v, want PK HASH, SK RANGE", keys)
	}
	attrs := map[string]string{}
	for _, a := range tb.AttributeDefinitions {
		attrs[a.AttributeName] = a.AttributeType
	}
	if len(attrs) != 2 || attrs["PK"] != "S" || attrs["SK"] != "S" {
		t.Errorf("AttributeDefinitions %v, want PK S, SK S", attrs)
	}
	if p := tb.PointInTimeRecoverySpecification; p == nil || p.PointInTimeRecoveryEnabled == nil || !*p.PointInTimeRecoveryEnabled {
		t.Errorf("point-in-time recovery is not enabled")
	}
	if ttl := tb.TimeToLiveSpecification; ttl == nil || !ttl.Enabled || ttl.AttributeName == nil || *ttl.AttributeName != "ttl" {
		t.Errorf("TimeToLiveSpecification is not enabled on attribute ttl")
	}
}

// The HTTP API: CORS for browsers of any origin with the headers the API reads,
// default throttling from parameters.
func TestTemplate_HttpApi(t *testing.T) {
	tpl := typed(t)
	api, err := tpl.GetServerlessHttpApiWithName(deploy.ApiID)
	if err != nil {
		t.Fatalf("HTTP API %s: %v", deploy.ApiID, err)
	}
	if api.CorsConfiguration == nil || api.CorsConfiguration.CorsConfigurationObject == nil {
		t.Fatal("no CorsConfiguration object")
	}
	c := api.CorsConfiguration.CorsConfigurationObject
	if !slices.Equal(c.AllowOrigins, []string{"*"}) {
		t.Errorf("AllowOrigins %v, want [*]", c.AllowOrigins)
	}
	for _, h := range []string{"Authorization", "Content-Type", "Idempotency-Key"} {
		if !slices.ContainsFunc(c.AllowHeaders, func(s string) bool { return strings.EqualFold(s, h) }) {
			t.Errorf("AllowHeaders %v lacks %s", c.AllowHeaders, h)
		}
	}
	for _, meth := range []string{"GET", "POST", "OPTIONS"} {
		if !slices.Contains(c.AllowMethods, meth) {
			t.Errorf("AllowMethods %v lacks %s", c.AllowMethods, meth)
		}
	}
	rs := api.DefaultRouteSettings
	if rs == nil || rs.ThrottlingBurstLimit == nil || *rs.ThrottlingBurstLimit < 1 || rs.ThrottlingRateLimit == nil || *rs.ThrottlingRateLimit <= 0 {
		t.Errorf("DefaultRouteSettings does not throttle (burst and rate from the parameters' defaults)")
	}
}

// The stack's outputs give the API URL (built from the API's id) and the table name.
func TestTemplate_Outputs(t *testing.T) {
	m := raw(t)
	url, _ := dig(m, "Outputs", "ApiUrl", "Value", "Fn::Sub").(string)
	if !strings.HasPrefix(url, "https://${"+deploy.ApiID+"}.execute-api.${AWS::Region}.") {
		t.Errorf("output ApiUrl is %v, want !Sub https://${%s}.execute-api.${AWS::Region}.${AWS::URLSuffix}/", dig(m, "Outputs", "ApiUrl", "Value"), deploy.ApiID)
	}
	if v := dig(m, "Outputs", "TableName", "Value"); !equalJSON(v, ref(deploy.TableID)) {
		t.Errorf("output TableName is %v, want !Ref %s", v, deploy.TableID)
	}
}

// makeDryRun prints the commands `make build-<id>` would run with the given
// makefiles, as SAM invokes it (ARTIFACTS_DIR set, run from CodeUri ".").
func makeDryRun(t *testing.T, makefiles []string, target, artifacts string) (string, error) {
	t.Helper()
	args := []string{"--no-print-directory", "-n"}
	for _, f := range makefiles {
		args = append(args, "-f", f)
	}
	args = append(args, target, "ARTIFACTS_DIR="+artifacts)
	cmd := exec.Command("make", args...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Every build-<LogicalId> target that SAM's makefile build method calls exists
// in the root Makefile and cross-compiles that function's directory to
// $(ARTIFACTS_DIR)/bootstrap for linux/arm64 without cgo.
func TestMakefile_BuildTargets(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("make is not installed, and CI must run this test")
		}
		t.Skip("make is not installed")
	}
	artifacts := t.TempDir()
	for _, id := range deploy.AllFunctions() {
		out, err := makeDryRun(t, []string{"Makefile"}, "build-"+id, artifacts)
		if err != nil {
			t.Errorf("make build-%s: %v\n%s(SAM's BuildMethod makefile needs it)", id, err, out)
			continue
		}
		for _, want := range []string{"CGO_ENABLED=0", "GOOS=linux", "GOARCH=arm64", "go build", "-tags lambda.norpc",
			"-o " + artifacts + "/bootstrap", "./" + deploy.Dir(id)} {
			if !strings.Contains(out, want) {
				t.Errorf("make build-%s does not run %q:\n%s", id, want, out)
			}
		}
	}
}

// checkViewsPolicy checks the views statement: PutItem, UpdateItem and
// DeleteItem on the views partitions only, nothing else.
func checkViewsPolicy(t *testing.T, id string, policy any) {
	t.Helper()
	actions, _ := dig(policy, "Statement").([]any)
	if len(actions) != 1 || !equalJSON(dig(actions[0], "Action"), []any{"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"}) ||
		!equalJSON(dig(actions[0], "Condition", "ForAllValues:StringLike", "dynamodb:LeadingKeys"), []any{store.ViewPrefix + "*"}) {
		t.Errorf("%s: the third policy is not the views statement: %v", id, policy)
	}
}
