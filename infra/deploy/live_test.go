package deploy_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/live"
)

func getAtt(resource, attr string) map[string]any {
	return map[string]any{"Fn::GetAtt": []any{resource, attr}}
}

// sameGetAtt accepts both spellings of Fn::GetAtt (["R","A"] and "R.A").
func sameGetAtt(v any, resource, attr string) bool {
	if equalJSON(v, getAtt(resource, attr)) {
		return true
	}
	return equalJSON(v, map[string]any{"Fn::GetAtt": resource + "." + attr})
}

// The WebSocket API beside the HTTP API: routes chosen by the message's
// "action", $connect, $disconnect, subscribe, unsubscribe and $default all
// proxied to the Live function, the message routes answering through a route
// response, a deployed stage, and API Gateway allowed to invoke Live from
// this API only.
func TestTemplate_LiveWebSocketAPI(t *testing.T) {
	tpl := typed(t)
	m := raw(t)
	api, err := tpl.GetApiGatewayV2ApiWithName(deploy.LiveApiID)
	if err != nil {
		t.Fatalf("WebSocket API %s: %v", deploy.LiveApiID, err)
	}
	if api.ProtocolType == nil || *api.ProtocolType != "WEBSOCKET" {
		t.Errorf("%s ProtocolType %v, want WEBSOCKET", deploy.LiveApiID, api.ProtocolType)
	}
	if api.RouteSelectionExpression == nil || *api.RouteSelectionExpression != "$request.body.action" {
		t.Errorf("RouteSelectionExpression %v, want $request.body.action (the protocol's \"action\")", api.RouteSelectionExpression)
	}
	// One AWS_PROXY integration to the Live function.
	integrations := map[string]bool{}
	for id, res := range m["Resources"].(map[string]any) {
		if dig(res, "Type") != "AWS::ApiGatewayV2::Integration" {
			continue
		}
		integrations[id] = true
		if !equalJSON(dig(res, "Properties", "ApiId"), ref(deploy.LiveApiID)) || dig(res, "Properties", "IntegrationType") != "AWS_PROXY" {
			t.Errorf("integration %s: not an AWS_PROXY integration of %s", id, deploy.LiveApiID)
		}
		if uri, _ := dig(res, "Properties", "IntegrationUri", "Fn::Sub").(string); !strings.Contains(uri, ":lambda:path/2015-03-31/functions/${Live.Arn}/invocations") {
			t.Errorf("integration %s: IntegrationUri %v does not invoke the Live function", id, dig(res, "Properties", "IntegrationUri"))
		}
	}
	want := map[string]bool{"$connect": false, "$disconnect": false, "subscribe": true, "unsubscribe": true, "$default": true}
	got := map[string]string{}
	for id, rt := range tpl.GetAllApiGatewayV2RouteResources() {
		got[rt.RouteKey] = id
		target, _ := dig(m, "Resources", id, "Properties", "Target", "Fn::Sub").(string)
		name, ok := strings.CutPrefix(target, "integrations/${")
		if !ok || !integrations[strings.TrimSuffix(name, "}")] {
			t.Errorf("route %s (%s): Target %v is not one of the Live integrations", id, rt.RouteKey, dig(m, "Resources", id, "Properties", "Target"))
		}
		if !equalJSON(dig(m, "Resources", id, "Properties", "ApiId"), ref(deploy.LiveApiID)) {
			t.Errorf("route %s: not on %s", id, deploy.LiveApiID)
		}
	}
	replied := map[string]bool{}
	for id := range tpl.GetAllApiGatewayV2RouteResponseResources() {
		if r, _ := dig(m, "Resources", id, "Properties", "RouteId", "Ref").(string); r != "" {
			replied[r] = true
		}
	}
	for key, reply := range want {
		id, ok := got[key]
		if !ok {
			t.Errorf("no route %s", key)
			continue
		}
		if reply && !replied[id] {
			t.Errorf("route %s (%s) has no route response, so the client never sees the reply", id, key)
		}
	}
	if len(got) != len(want) {
		t.Errorf("routes %v, want exactly %v", got, want)
	}
	st, err := tpl.GetApiGatewayV2StageWithName("LiveStage")
	if err != nil || st.StageName != deploy.LiveStage {
		t.Errorf("stage LiveStage: %v, want stage name %q", err, deploy.LiveStage)
	}
	perm, err := tpl.GetLambdaPermissionWithName("LivePermission")
	if err != nil {
		t.Fatalf("LivePermission: %v", err)
	}
	if perm.Principal != "apigateway.amazonaws.com" || perm.Action != "lambda:InvokeFunction" {
		t.Errorf("LivePermission lets %s %s, want apigateway.amazonaws.com lambda:InvokeFunction", perm.Principal, perm.Action)
	}
	if fn := dig(m, "Resources", "LivePermission", "Properties", "FunctionName"); !equalJSON(fn, ref("Live")) {
		t.Errorf("LivePermission is for %v, want !Ref Live", fn)
	}
	if src, _ := dig(m, "Resources", "LivePermission", "Properties", "SourceArn", "Fn::Sub").(string); !strings.Contains(src, ":${"+deploy.LiveApiID+"}/") {
		t.Errorf("LivePermission's SourceArn %v is not scoped to %s", dig(m, "Resources", "LivePermission", "Properties", "SourceArn"), deploy.LiveApiID)
	}
	wsURL := "wss://${" + deploy.LiveApiID + "}.execute-api.${AWS::Region}.${AWS::URLSuffix}/" + deploy.LiveStage
	if v, _ := dig(m, "Globals", "Function", "Environment", "Variables", "WEBSOCKET_URL", "Fn::Sub").(string); v != wsURL {
		t.Errorf("Globals WEBSOCKET_URL is %v, want !Sub %s (the web page and the fan-out read it)", v, wsURL)
	}
	if v, _ := dig(m, "Outputs", "LiveUrl", "Value", "Fn::Sub").(string); v != wsURL {
		t.Errorf("output LiveUrl is %v, want !Sub %s", v, wsURL)
	}
}

// The table streams new images, and the fan-out reads that stream through an
// event source mapping whose filter lets only the kinds live.Kinds pushes
// invoke it, reporting partial batch failures.
func TestTemplate_LiveStreamMappingAndFilter(t *testing.T) {
	tpl := typed(t)
	m := raw(t)
	tb, err := tpl.GetDynamoDBTableWithName(deploy.TableID)
	if err != nil {
		t.Fatal(err)
	}
	if tb.StreamSpecification == nil || (tb.StreamSpecification.StreamViewType != "NEW_IMAGE" && tb.StreamSpecification.StreamViewType != "NEW_AND_OLD_IMAGES") {
		t.Errorf("the table's StreamSpecification %+v does not carry new images", tb.StreamSpecification)
	}
	esm, err := tpl.GetLambdaEventSourceMappingWithName(deploy.LiveStreamID)
	if err != nil {
		t.Fatalf("%s: %v", deploy.LiveStreamID, err)
	}
	props := dig(m, "Resources", deploy.LiveStreamID, "Properties")
	if !sameGetAtt(dig(props, "EventSourceArn"), deploy.TableID, "StreamArn") {
		t.Errorf("EventSourceArn %v, want !GetAtt %s.StreamArn", dig(props, "EventSourceArn"), deploy.TableID)
	}
	if !equalJSON(dig(props, "FunctionName"), ref("LiveFanout")) {
		t.Errorf("FunctionName %v, want !Ref LiveFanout", dig(props, "FunctionName"))
	}
	if !slices.Contains(esm.FunctionResponseTypes, "ReportBatchItemFailures") {
		t.Errorf("FunctionResponseTypes %v lacks ReportBatchItemFailures (live.Hub.Stream reports the record to retry from)", esm.FunctionResponseTypes)
	}
	if esm.StartingPosition == nil || *esm.StartingPosition != "LATEST" {
		t.Errorf("StartingPosition %v, want LATEST (old changes are of no use to a live page)", esm.StartingPosition)
	}
	if esm.FilterCriteria == nil || len(esm.FilterCriteria.Filters) != 1 || esm.FilterCriteria.Filters[0].Pattern == nil {
		t.Fatalf("FilterCriteria %+v, want one filter pattern", esm.FilterCriteria)
	}
	var pattern struct {
		EventName []string `json:"eventName"`
		DynamoDB  struct {
			NewImage map[string]struct {
				S []string `json:"S"`
			} `json:"NewImage"`
		} `json:"dynamodb"`
	}
	if err := json.Unmarshal([]byte(*esm.FilterCriteria.Filters[0].Pattern), &pattern); err != nil {
		t.Fatalf("filter pattern: %v", err)
	}
	if !equalSets(pattern.EventName, []string{"INSERT", "MODIFY"}) {
		t.Errorf("filter eventName %v, want INSERT and MODIFY (removals push nothing)", pattern.EventName)
	}
	if len(pattern.DynamoDB.NewImage) != 1 || !equalSets(pattern.DynamoDB.NewImage["kind"].S, live.Kinds) {
		t.Errorf("filter on NewImage %+v, want kind.S exactly %v (live.Kinds)", pattern.DynamoDB.NewImage, live.Kinds)
	}
}

func equalSets(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// statements returns a function's inline policy statements (raw, intrinsics
// unresolved); it fails on anything but inline statements.
func statements(t *testing.T, m map[string]any, fn string) []map[string]any {
	t.Helper()
	list, _ := dig(m, "Resources", fn, "Properties", "Policies").([]any)
	var out []map[string]any
	for _, p := range list {
		st, ok := dig(p, "Statement").([]any)
		if !ok {
			t.Errorf("%s: policy %v is not an inline statement list (a managed policy or template grants more than the function needs)", fn, p)
			continue
		}
		for _, s := range st {
			out = append(out, s.(map[string]any))
		}
	}
	return out
}

func actions(s map[string]any) []string {
	switch a := s["Action"].(type) {
	case string:
		return []string{a}
	case []any:
		out := make([]string, len(a))
		for i, x := range a {
			out[i] = fmt.Sprint(x)
		}
		return out
	}
	return nil
}

// Least privilege for the live functions: execute-api:ManageConnections only
// for POSTs to this WebSocket API's connections and only for the fan-out;
// stream reads only on this table's stream; table actions only on this table;
// no wildcard resource and nothing allowed but these.
func TestTemplate_LiveLeastPrivilege(t *testing.T) {
	m := raw(t)
	manage := "arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:${" + deploy.LiveApiID + "}/" + deploy.LiveStage + "/POST/@connections/*"
	allowed := map[string]map[string]func(res any) bool{
		"Live": {
			"dynamodb:GetItem": isTable, "dynamodb:Query": isTable, "dynamodb:PutItem": isTable, "dynamodb:DeleteItem": isTable,
		},
		"LiveFanout": {
			"dynamodb:Query": isTable, "dynamodb:GetItem": isTable, "dynamodb:DeleteItem": isTable,
			"dynamodb:DescribeStream":   isStream,
			"dynamodb:GetRecords":       isStream,
			"dynamodb:GetShardIterator": isStream,
			"dynamodb:ListStreams": func(res any) bool {
				return dig(res, "Fn::Sub") == "${"+deploy.TableID+".Arn}/stream/*"
			},
			"execute-api:ManageConnections": func(res any) bool { return dig(res, "Fn::Sub") == manage },
		},
	}
	for fn, rules := range allowed {
		granted := map[string]bool{}
		for _, s := range statements(t, m, fn) {
			if s["Effect"] != "Allow" {
				continue
			}
			for _, a := range actions(s) {
				check, ok := rules[a]
				switch {
				case !ok:
					t.Errorf("%s is allowed %s, which it does not need", fn, a)
				case !check(s["Resource"]):
					t.Errorf("%s: %s on %v, wider than it needs", fn, a, s["Resource"])
				default:
					granted[a] = true
				}
			}
		}
		for a := range rules {
			if !granted[a] {
				t.Errorf("%s lacks %s", fn, a)
			}
		}
	}
}

func isTable(res any) bool  { return sameGetAtt(res, deploy.TableID, "Arn") }
func isStream(res any) bool { return sameGetAtt(res, deploy.TableID, "StreamArn") }
