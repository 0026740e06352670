namespace ProtoHttp.AspNetCore.Redis;

/// <summary>
/// The Lua scripts of the Redis engine (docs/deploy.md, "Redis"). Each is one round trip and runs atomically, so an
/// append, its trim and its hint cannot be torn apart by a failure between them.
/// </summary>
internal static class RedisScripts
{
    /// <summary>
    /// KEYS: stream, trimmed marker. ARGV: payload, max length (0: none), max age in ms (0: none), hint channel, the
    /// publish's deadline in Unix ms. Refuses a publish whose deadline has passed (its caller has been told it failed,
    /// and a client library may still send a command it held through a reconnect). Appends with Redis's own id (<c>*</c>), then trims exactly what the bounds say and records the newest entry it
    /// removed, so a reader can be told for certain whether what it asks for was trimmed; publishes the new id as a
    /// hint; returns the id.
    /// </summary>
    public const string Append = """
        local clock = redis.call('TIME')
        if tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000) > tonumber(ARGV[5]) then
          return redis.error_reply('EXPIRED the publish deadline passed before Redis ran it')
        end
        local id = redis.call('XADD', KEYS[1], '*', 'p', ARGV[1])
        local function parse(text)
          local dash = string.find(text, '-', 1, true)
          return tonumber(string.sub(text, 1, dash - 1)), tonumber(string.sub(text, dash + 1))
        end
        local function after(a, b)
          local am, an = parse(a)
          local bm, bn = parse(b)
          return am > bm or (am == bm and an > bn)
        end
        local newest = nil
        local maxlen = tonumber(ARGV[2])
        if maxlen > 0 then
          local excess = redis.call('XLEN', KEYS[1]) - maxlen
          if excess > 0 then
            local gone = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', excess)
            newest = gone[#gone][1]
          end
        end
        local maxage = tonumber(ARGV[3])
        if maxage > 0 then
          local cutoff = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000) - maxage
          local old = redis.call('XREVRANGE', KEYS[1], string.format('%.0f', cutoff), '-', 'COUNT', 1)
          if #old > 0 and old[1][1] ~= id and (newest == nil or after(old[1][1], newest)) then
            newest = old[1][1]
          end
        end
        if newest ~= nil then
          local ms, seq = parse(newest)
          redis.call('XTRIM', KEYS[1], 'MINID', '=', string.format('%.0f-%.0f', ms, seq + 1))
          redis.call('SET', KEYS[2], newest)
        end
        redis.call('PUBLISH', ARGV[4], id)
        return id
        """;

    /// <summary>KEYS: stream, trimmed marker. ARGV: the id to read after, count. Returns the newest trimmed id and the entries.</summary>
    public const string Read = """
        local entries = redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+', 'COUNT', ARGV[2])
        return { redis.call('GET', KEYS[2]) or '0-0', entries }
        """;

    /// <summary>KEYS: stream, trimmed marker. Returns the newest id there is or was.</summary>
    public const string Tail = """
        local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
        if #last > 0 then
          return last[1][1]
        end
        return redis.call('GET', KEYS[2]) or '0-0'
        """;
}
