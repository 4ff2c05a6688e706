package core

import "reflect"

// Fill copies every exported field of the struct src points to into the field of the same name
// and type of the struct dst points to, and leaves dst's other fields alone. Services that keep
// a resource as the SDK's type (API Gateway's types.Api) answer the Create, Get and Update
// outputs that repeat its fields this way.
func Fill(dst, src any) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for i := range s.NumField() {
		f := s.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		if to := d.FieldByName(f.Name); to.IsValid() && to.CanSet() && to.Type() == f.Type {
			to.Set(s.Field(i))
		}
	}
}
