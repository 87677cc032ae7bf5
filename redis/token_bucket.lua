-- Token bucket, refilled and debited atomically inside Redis: the same rules as bucketlab's Rust
-- core (src/limiter/bucket.rs). Redis runs a script as one step, so two app servers can never
-- both spend the same token.
--
-- KEYS[1]  the client's bucket, a hash {tokens, last}; exactly 1 key
-- ARGV     capacity B (> 0), refill_rate r (>= 0, tokens/s), cost c (>= 0), now (seconds); exactly 4
--          `now` comes from the caller, so every app server must use the same time origin
--          (Unix time). Numbers go in as decimal text, an exponent allowed (no hex, no spaces):
--          Rust's shortest form reads back exactly, and so do Go's and Java's default ones for a
--          time (1.7966221628049476e+09, 1.796622165613E9). `now` must lie from -1e11 to 1e11
--          seconds (the year 5138):
--          epoch milliseconds (1.7e12 in 2023) are refused, not read as a clock 1000 times fast,
--          and so is one before -1e11 (nothing real is that far before 1970, and the core's time
--          slack, 4*eps*|now| with eps = 2^-52 the gap between 1 and the next double, grows with
--          it: 0.09 ms at 1e11, a day near 1e20).
-- Returns  {allowed (1 or 0), tokens, retry_after, never, available, elapsed, tokens_before, lag}
--          as text ('%.17g': exact doubles); retry_after is -1 when the request can never pass,
--          and never then says why: 'cost_exceeds_capacity' or 'no_refill' ('' otherwise); a wait
--          longer than a double can count (a rate such as 1e-320) is 'inf', as the core reports
--          it (a refusal without a Retry-After, the key kept as one that never fills); lag is
--          how far `now` is behind the stored `last` (another server's clock ahead), else 0.

-- Rounding slack, the core's: 1e-12 of B in tokens, 1 ns in time (or 4*eps*|now|, 4 to 8 ulp of
-- now, when that is more).
local TOKEN_SLACK = 1e-12
local EPSILON = 2 ^ -52
-- Keys outlive the moment they would be full by this much, for clocks that differ between servers.
local EXPIRY_MARGIN_MS = 1000

-- Seconds either side of 0; epoch milliseconds are above this by a factor of ten or more. Within
-- it the time slack (4*eps*|now|) stays under 0.1 ms; near 1e20 it would be a day.
local MAX_NOW = 1e11

-- ARGV[index] as a number, or an error: 'ERR {name} must be {rule}, got "{text}"' ('it is
-- missing' when there is no such argument). `read` turns the text into a number or nil.
local function number(index, name, rule, ok, read)
  local text = ARGV[index]
  if text == nil then
    error({ err = 'ERR ' .. name .. ' must be ' .. rule .. ', it is missing' })
  end
  local value = (read or tonumber)(text)
  -- value ~= value is NaN; +-math.huge are infinite.
  if value == nil or value ~= value or value == math.huge or value == -math.huge or not ok(value) then
    error({ err = 'ERR ' .. name .. ' must be ' .. rule .. ', got "' .. text .. '"' })
  end
  return value
end

-- Decimal text with an optional exponent, as Rust and most languages write a double: tonumber
-- alone would also read '0x10' as 16 and ' 5' as 5.
local function decimal_or_exponent(text)
  local mantissa, exponent = string.match(text, '^([^eE]*)[eE]([%+%-]?%d+)$')
  local digits = mantissa or text
  if exponent == nil and mantissa ~= nil then return nil end
  if string.match(digits, '^%-?%d+%.?%d*$') or string.match(digits, '^%-?%.%d+$') then
    return tonumber(text)
  end
  return nil
end

-- Exactly 1 key and 4 arguments: an extra one is a caller's mistake (a shifted argument, a second
-- key meant for another script), refused rather than silently ignored. A missing key is named like
-- a missing argument; without this check HMGET would fail with Redis's own nameless message.
if KEYS[1] == nil then
  error({ err = "ERR key must be the client's bucket (KEYS[1]), it is missing" })
end
if #KEYS > 1 then
  error({ err = "ERR expected 1 key (the client's bucket), got " .. #KEYS .. ': "'
    .. table.concat(KEYS, '" "') .. '"' })
end
if #ARGV > 4 then
  error({ err = 'ERR expected 4 arguments (capacity, refill_rate, cost, now), got ' .. #ARGV
    .. '; beyond now: "' .. table.concat(ARGV, '" "', 5) .. '"' })
end

local capacity = number(1, 'capacity', 'a finite number greater than 0', function(v) return v > 0 end,
  decimal_or_exponent)
local rate = number(2, 'refill_rate', 'a finite number of at least 0', function(v) return v >= 0 end,
  decimal_or_exponent)
local cost = number(3, 'cost', 'a finite number of at least 0', function(v) return v >= 0 end,
  decimal_or_exponent)
local now = number(4, 'now',
  "a decimal number of seconds (digits with an optional '-', decimal point and exponent)",
  function() return true end, decimal_or_exponent)
if now > MAX_NOW then
  error({ err = 'ERR now must be Unix time in seconds, at most 1e11, got "' .. ARGV[4]
    .. '": that looks like milliseconds (divide by 1000)' })
end
if now < -MAX_NOW then
  error({ err = 'ERR now must be Unix time in seconds, at least -1e11, got "' .. ARGV[4] .. '"' })
end

-- A field this script wrote, or nil if the key is missing (HMGET gives false then).
local function stored(value, name)
  if value == false then return nil end
  local n = tonumber(value)
  if n == nil then
    error({ err = 'ERR ' .. KEYS[1] .. ' holds ' .. name .. ' = "' .. value .. '", not a number' })
  end
  return n
end

-- A missing key is a full bucket whose clock starts now. A smaller capacity than last time
-- spills what no longer fits.
local state = redis.call('HMGET', KEYS[1], 'tokens', 'last')
local tokens_before = math.min(capacity, stored(state[1], 'tokens') or capacity)
local last = stored(state[2], 'last') or now

-- Lazy refill: min(B, tokens + max(0, now - last) * r). Time going backwards adds nothing and
-- never moves `last` back.
local elapsed = math.max(0, now - last)
local available = tokens_before
if elapsed > 0 and rate > 0 then
  available = math.min(capacity, tokens_before + elapsed * rate)
end
-- If `now` is behind `last`, the missing tokens only start to accrue from `last`.
local lag = math.max(0, last - now)
last = math.max(last, now)

local tokens = available
local allowed, retry_after, never = 0, 0, ''
local token_slack = capacity * TOKEN_SLACK
local time_slack = math.max(1e-9, math.abs(now) * 4 * EPSILON)
if cost - capacity > token_slack then
  retry_after, never = -1, 'cost_exceeds_capacity'
elseif cost == 0 or available + token_slack + rate * time_slack >= cost then
  -- Let in by the slack, the request owes what it was short: the count goes that hair below 0
  -- and the refill pays it back first, so the slack never adds up over requests. Cost 0 always
  -- passes, even while the count owes more than an earlier `now`'s slack covers.
  allowed, tokens = 1, available - cost
elseif rate == 0 then
  retry_after, never = -1, 'no_refill'
else
  retry_after = lag + (cost - available) / rate
end

-- A denied request changes nothing but the refill, which is stored either way.
local function text(x) return string.format('%.17g', x) end
redis.call('HSET', KEYS[1], 'tokens', text(tokens), 'last', text(last))

-- Expire the key once the bucket would be full again: then it is the same as a missing key.
if tokens >= capacity then
  redis.call('PEXPIRE', KEYS[1], EXPIRY_MARGIN_MS)
elseif rate > 0 then
  local ms = math.ceil((lag + (capacity - tokens) / rate) * 1000) + EXPIRY_MARGIN_MS
  -- Beyond 2^53 ms (285,000 years) the count is no longer exact: keep the key instead.
  if ms < 2 ^ 53 then
    redis.call('PEXPIRE', KEYS[1], string.format('%d', ms))
  else
    redis.call('PERSIST', KEYS[1])
  end
else
  -- No refill: the bucket never fills up again, so it must be remembered.
  redis.call('PERSIST', KEYS[1])
end

-- A count still paying back the slack's hair is reported as 0, as the core reports it.
local function shown(x) return text(math.max(0, x)) end
return { allowed, shown(tokens), text(retry_after), never, shown(available), text(elapsed), shown(tokens_before),
  text(lag) }
