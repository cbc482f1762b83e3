-- wrk script of the benchmark (bench/lib/load.ts runs `wrk -s bench.lua URL -- key=value ...`).
--   paths=FILE   request the paths of FILE (one a line) in turn instead of the URL's path;
--                thread k of T starts at offset+k and steps by T, so no path repeats until
--                the file is exhausted (uncached lookups)
--   offset=N     first index into the path list
--   xff=N        X-Forwarded-For rotating over N distinct addresses (10.a.b.c): N clients
--                behind a trusted proxy, each with its own rate-limit bucket
--   method=M body=FILE ctype=T   a POST body (read once)
-- done() prints one line `WRK_JSON {...}`: the figures wrk's own summary rounds away.
local threads = {}
local nthreads = 0

function setup(thread)
  thread:set("tid", nthreads)
  nthreads = nthreads + 1
  table.insert(threads, thread)
end

local paths, npaths, xff, step, counter = nil, 0, 0, 1, 0

function init(args)
  local offset = 0
  for _, a in ipairs(args) do
    local k, v = a:match("^([^=]+)=(.*)$")
    if k == "paths" then
      paths = {}
      for line in io.lines(v) do
        if #line > 0 then paths[#paths + 1] = line end
      end
      npaths = #paths
    elseif k == "xff" then
      xff = tonumber(v)
    elseif k == "offset" then
      offset = tonumber(v)
    elseif k == "threads" then
      step = tonumber(v)
    elseif k == "method" then
      wrk.method = v
    elseif k == "ctype" then
      wrk.headers["Content-Type"] = v
    elseif k == "body" then
      local f = assert(io.open(v, "rb"))
      wrk.body = f:read("*a")
      f:close()
    end
  end
  counter = offset + (tid or 0)
end

function request()
  local i = counter
  counter = counter + step
  if xff > 0 then
    local n = i % xff
    wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
  end
  if npaths > 0 then
    return wrk.format(nil, paths[(i % npaths) + 1])
  end
  return wrk.format()
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%.0f,"durationUs":%.0f,"bytes":%.0f,"connect":%.0f,"read":%.0f,"write":%.0f,"status":%.0f,"timeout":%.0f,' ..
      '"p50":%.0f,"p90":%.0f,"p99":%.0f,"max":%.0f,"mean":%.1f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
