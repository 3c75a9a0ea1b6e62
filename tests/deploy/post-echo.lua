-- wrk: POST /echo (conformance fixture row 17), a request nginx does not retry once written.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"items":[{"sku":"A-1","qty":2}],"note":"rolling deploy"}'
