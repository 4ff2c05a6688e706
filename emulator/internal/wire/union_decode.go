package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sync"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/aws/smithy-go/transport/http/protocol/awsjson"
)

// sdkJSON is smithy-go's awsJson protocol, whose JSON shape deserializer the SDK's own types
// read themselves with.
var sdkJSON = awsjson.New11(smithy.NewServiceSchema(smithy.NewSchema(smithy.ShapeID{Namespace: synthesizedNamespace, Name: "Service"}, smithy.ShapeTypeService, 0), ""))

// anyOutput stands for the output shape the protocol asks for before it deserializes.
var anyOutput = &smithy.OperationSchema{Output: smithy.NewSchema(smithy.ShapeID{Namespace: synthesizedNamespace, Name: "Output"}, smithy.ShapeTypeStructure, 0)}

// unionHolders caches, by struct type, whether the struct has a member of interface type (a
// union or a document), directly or as the items of a list or map.
var unionHolders sync.Map

// holdsUnion reports whether struct type t has a member of interface type.
func holdsUnion(t reflect.Type) bool {
	if v, ok := unionHolders.Load(t); ok {
		return v.(bool)
	}
	found := false
	for i := range t.NumField() {
		ft := t.Field(i).Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice || ft.Kind() == reflect.Map {
			ft = ft.Elem()
		}
		if t.Field(i).IsExported() && ft.Kind() == reflect.Interface {
			found = true
			break
		}
	}
	unionHolders.Store(t, found)
	return found
}

// assignUnions decodes raw into v, an SDK struct that has a union (or document) member and
// deserializes itself, through the SDK's own deserializer, since the generic path of assign
// cannot tell which Go type a union's member is. It reports whether it did; structs without
// unions are left to assign.
func assignUnions(v reflect.Value, raw any) (bool, error) {
	if !v.CanAddr() || !holdsUnion(v.Type()) {
		return false, nil
	}
	d, ok := v.Addr().Interface().(smithy.Deserializable)
	if !ok {
		return false, nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return true, fmt.Errorf("re-encode %s: %w", v.Type().Name(), err)
	}
	resp := &smithyhttp.Response{Response: &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(bytes.NewReader(b))}}
	if err := sdkJSON.DeserializeResponse(context.Background(), anyOutput, nil, resp, d); err != nil {
		return true, fmt.Errorf("decode %s: %w", v.Type().Name(), err)
	}
	return true, nil
}
