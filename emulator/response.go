package emulator

import (
	"encoding/json"
	"encoding/xml"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/wire"
)

// writeOutput writes a successful answer in the service's protocol.
func (req *request) writeOutput(w http.ResponseWriter, out any) {
	switch req.svc.Protocol {
	case core.ProtocolEC2Query:
		enc := &wire.XMLEncoder{EC2: true}
		wire.Encode(enc, out, req.svc.OutputSchema(req.operation))
		w.Header().Set("Content-Type", "text/xml;charset=UTF-8")
		_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<" + req.operation + `Response xmlns="` + req.svc.XMLNamespace +
			`"><requestId>` + req.call.RequestID + "</requestId>" + string(enc.Bytes()) + "</" + req.operation + "Response>"))
	case core.ProtocolRESTXML, core.ProtocolRESTJSON:
		m := req.svc.Model
		status := http.StatusOK
		if b := m.HTTP(req.operation); b != nil && b.ResponseCode != 0 {
			status = b.ResponseCode
		}
		var res wire.RESTResponse
		contentType := "application/xml"
		if req.svc.Protocol == core.ProtocolRESTJSON {
			res, contentType = wire.EncodeRESTJSON(out, req.svc.OutputSchema(req.operation), status), "application/json"
		} else {
			res = wire.EncodeREST(out, req.svc.OutputSchema(req.operation), m.ElementName(m.OutputShape(req.operation)),
				req.svc.XMLNamespace, req.svc.ScalarDocuments[req.operation], status)
		}
		for k, vs := range res.Header {
			w.Header()[k] = vs
		}
		w.Header().Set("X-Amz-Request-Id", req.call.RequestID)
		w.Header().Set("X-Amzn-RequestId", req.call.RequestID)
		if res.Body != nil {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(res.Status)
		if req.http.Method == http.MethodHead {
			return
		}
		_, _ = w.Write(res.Body)
		if res.Stream != nil {
			_, _ = io.Copy(w, res.Stream)
		}
	case core.ProtocolQuery:
		enc := &wire.XMLEncoder{}
		wire.Encode(enc, out, req.svc.OutputSchema(req.operation))
		w.Header().Set("Content-Type", "text/xml")
		w.Header().Set("X-Amzn-RequestId", req.call.RequestID)
		var b strings.Builder
		b.WriteString("<" + req.operation + `Response xmlns="` + req.svc.XMLNamespace + `"><` + req.operation + "Result>")
		b.Write(enc.Bytes())
		b.WriteString("</" + req.operation + "Result><ResponseMetadata><RequestId>" + req.call.RequestID +
			"</RequestId></ResponseMetadata></" + req.operation + "Response>")
		_, _ = w.Write([]byte(b.String()))
	default:
		enc := &wire.JSONEncoder{}
		wire.Encode(enc, out, req.svc.OutputSchema(req.operation))
		w.Header().Set("Content-Type", req.svc.ContentType())
		w.Header().Set("X-Amzn-RequestId", req.call.RequestID)
		req.setCRC32(w, enc.Bytes())
		_, _ = w.Write(enc.Bytes())
	}
}

// writeError writes err in the envelope of the request's protocol (query protocols when the
// service is not known).
func (req *request) writeError(w http.ResponseWriter, err error) {
	apiErr, ok := err.(*core.APIError)
	if !ok {
		apiErr = &core.APIError{Code: "InternalFailure", Status: http.StatusInternalServerError, Server: true, Message: err.Error()}
	}
	id := req.call.RequestID
	w.Header().Set("X-Amzn-RequestId", id)
	var msg strings.Builder
	_ = xml.EscapeText(&msg, []byte(apiErr.Message))
	protocol, ns := core.ProtocolQuery, ""
	if req.svc != nil {
		protocol, ns = req.svc.Protocol, req.svc.XMLNamespace
	}
	switch protocol {
	case core.ProtocolRESTJSON:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Amzn-ErrorType", apiErr.Code)
		w.WriteHeader(apiErr.HTTPStatus())
		body, _ := json.Marshal(map[string]string{"Type": faultTypeJSON(apiErr), "message": apiErr.Message})
		_, _ = w.Write(body)
	case core.ProtocolJSON10, core.ProtocolJSON11:
		w.Header().Set("Content-Type", req.svc.ContentType())
		w.Header().Set("X-Amzn-ErrorType", apiErr.Code)
		if req.svc.QueryCompatible {
			code := apiErr.QueryCode
			if code == "" {
				code = req.svc.QueryErrorCode(apiErr.Code)
			}
			w.Header().Set("X-Amzn-Query-Error", code+";"+faultName(apiErr))
		}
		body, _ := json.Marshal(map[string]string{"__type": apiErr.Code, "message": apiErr.Message})
		req.setCRC32(w, body)
		w.WriteHeader(apiErr.HTTPStatus())
		_, _ = w.Write(body)
	case core.ProtocolRESTXML:
		w.Header().Set("X-Amz-Request-Id", id)
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(apiErr.HTTPStatus())
		if req.http.Method == http.MethodHead {
			return
		}
		if req.svc.WrappedErrors {
			_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<ErrorResponse xmlns=\"" + ns + `"><Error><Type>` + faultName(apiErr) +
				"</Type><Code>" + apiErr.Code + "</Code><Message>" + msg.String() + "</Message></Error><RequestId>" + id + "</RequestId></ErrorResponse>"))
			return
		}
		_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<Error><Code>" + apiErr.Code + "</Code><Message>" +
			msg.String() + "</Message><RequestId>" + id + "</RequestId><HostId>emulator</HostId></Error>"))
	case core.ProtocolEC2Query:
		w.Header().Set("Content-Type", "text/xml;charset=UTF-8")
		w.WriteHeader(apiErr.HTTPStatus())
		_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<Response><Errors><Error><Code>" + apiErr.Code +
			"</Code><Message>" + msg.String() + "</Message></Error></Errors><RequestID>" + id + "</RequestID></Response>"))
	default:
		w.Header().Set("Content-Type", "text/xml")
		w.WriteHeader(apiErr.HTTPStatus())
		_, _ = w.Write([]byte(`<ErrorResponse xmlns="` + ns + `"><Error><Type>` + faultName(apiErr) + "</Type><Code>" + apiErr.Code +
			"</Code><Message>" + msg.String() + "</Message></Error><RequestId>" + id + "</RequestId></ErrorResponse>"))
	}
}

// setCRC32 sets the x-amz-crc32 header of a response body, for services whose clients check it.
func (req *request) setCRC32(w http.ResponseWriter, body []byte) {
	if req.svc.CRC32 {
		w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10))
	}
}

// faultTypeJSON is the Type member of restJson1 errors: "User" or "Service".
func faultTypeJSON(e *core.APIError) string {
	if e.Server {
		return "Service"
	}
	return "User"
}

func faultName(e *core.APIError) string {
	if e.Server {
		return "Receiver"
	}
	return "Sender"
}
