using Google.Protobuf;
using Northwind;
using StackExchange.Redis;

namespace SearchService.Streams;

/// <summary>
/// Carries the price feed between instances through one Redis pub/sub channel, as SignalR's Redis backplane carries
/// messages: every instance publishes the ticks its own ticker makes to the channel, and delivers to its local
/// subscribers only what the channel carries, its own ticks included, so each tick reaches every subscriber of every
/// instance once. A tick is a serialized <see cref="PriceTick"/>; its sequence comes from one Redis counter, so the
/// feed has one sequence whichever instance ticked. Redis pub/sub keeps nothing: a tick published while an instance is
/// cut off from Redis never reaches that instance's subscribers, and ticks made while Redis is unreachable are lost.
/// </summary>
public sealed partial class RedisPriceBackplane : IAsyncDisposable
{
    /// <summary>The channel the ticks travel on.</summary>
    public static readonly RedisChannel Channel = RedisChannel.Literal("northwind:price-ticks");

    /// <summary>The counter that numbers the ticks of every instance.</summary>
    public static readonly RedisKey SequenceKey = "northwind:price-ticks:sequence";

    private static readonly TimeSpan ConnectRetryDelay = TimeSpan.FromSeconds(2);

    private readonly ConfigurationOptions _options;
    private readonly ILogger<RedisPriceBackplane> _logger;
    private volatile ConnectionMultiplexer? _connection;
    private bool _lossLogged;

    /// <param name="configuration">A StackExchange.Redis configuration string.</param>
    /// <param name="logger">Where connection changes and lost ticks are told.</param>
    /// <exception cref="InvalidOperationException">The configuration string cannot be read: the app does not start.</exception>
    public RedisPriceBackplane(string configuration, ILogger<RedisPriceBackplane> logger)
    {
        _logger = logger;
        try
        {
            _options = ConfigurationOptions.Parse(configuration);
        }
        catch (ArgumentException e)
        {
            // The string may hold a password: it is not repeated.
            throw new InvalidOperationException($"PriceTicker:Redis is not a StackExchange.Redis configuration string such as localhost:6379: {e.Message}", e);
        }

        _options.ClientName ??= "northwind-price-feed";
        // RunAsync retries the first connection itself; it must fail rather than return unconnected (abortConnect=false).
        _options.AbortOnConnectFail = true;
    }

    /// <summary>
    /// Connects (trying again until Redis answers) and subscribes, then hands every tick the channel carries to
    /// <paramref name="deliver"/>, one at a time in the channel's order. Once connected, StackExchange.Redis reconnects
    /// and subscribes again by itself after Redis or the network comes back.
    /// </summary>
    public async Task RunAsync(Action<PriceTick> deliver, CancellationToken stoppingToken)
    {
        var attempts = 0;
        while (!stoppingToken.IsCancellationRequested)
        {
            ConnectionMultiplexer? connection = null;
            try
            {
                // The first connection must succeed before subscribing: a subscription made while disconnected would be
                // left half-registered by a retry. After it, reconnecting is the library's.
                connection = await ConnectionMultiplexer.ConnectAsync(_options);
                var queue = await connection.GetSubscriber().SubscribeAsync(Channel);
                queue.OnMessage(message => Deliver(message.Message, deliver));
                connection.ConnectionFailed += (_, e) => ConnectionLost(_logger, e.ConnectionType, e.FailureType);
                connection.ConnectionRestored += (_, e) => ConnectionBack(_logger, e.ConnectionType);
                _connection = connection;
                Connected(_logger, string.Join(", ", _options.EndPoints));
                return;
            }
            catch (RedisException e)
            {
                if (connection is not null)
                {
                    await connection.DisposeAsync();
                }

                // One line per retry says why; the stack trace, the same every time, is logged with the first only.
                NotConnected(_logger, ConnectRetryDelay, e.Message, attempts++ == 0 ? e : null);
                try
                {
                    await Task.Delay(ConnectRetryDelay, stoppingToken);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        }
    }

    /// <summary>
    /// Numbers a tick this instance made and publishes it; every instance, this one included, delivers it when the
    /// channel carries it back. Returns false when Redis could not be reached: the tick is lost, not queued.
    /// </summary>
    public async Task<bool> PublishAsync(PriceTick tick)
    {
        if (_connection is not { IsConnected: true } connection)
        {
            TickLost(tick);
            return false;
        }

        try
        {
            tick.Sequence = await connection.GetDatabase().StringIncrementAsync(SequenceKey);
            await connection.GetSubscriber().PublishAsync(Channel, tick.ToByteArray());
            _lossLogged = false;
            return true;
        }
        catch (RedisException)
        {
            TickLost(tick);
            return false;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_connection is { } connection)
        {
            await connection.DisposeAsync();
        }
    }

    private void Deliver(RedisValue message, Action<PriceTick> deliver)
    {
        PriceTick tick;
        try
        {
            tick = PriceTick.Parser.ParseFrom((byte[])message!);
        }
        catch (InvalidProtocolBufferException e)
        {
            // Someone else's message on the channel; a subscriber gets only ticks.
            NotATick(_logger, e);
            return;
        }

        deliver(tick);
    }

    private void TickLost(PriceTick tick)
    {
        // Once per outage: a tick a second would fill the log.
        if (!_lossLogged)
        {
            _lossLogged = true;
            TicksLost(_logger, tick.ProductId);
        }
    }

    [LoggerMessage(1, LogLevel.Information, "Price feed backplane: subscribed through Redis at {EndPoints}.")]
    private static partial void Connected(ILogger logger, string endPoints);

    [LoggerMessage(2, LogLevel.Warning, "Price feed backplane: Redis cannot be reached ({Reason}); trying again in {Delay}. Until then this instance's subscribers get no ticks.")]
    private static partial void NotConnected(ILogger logger, TimeSpan delay, string reason, Exception? exception);

    [LoggerMessage(3, LogLevel.Warning, "Price feed backplane: the {ConnectionType} connection to Redis failed ({FailureType}); ticks published until it is back are lost, subscribers stay connected.")]
    private static partial void ConnectionLost(ILogger logger, ConnectionType connectionType, ConnectionFailureType failureType);

    [LoggerMessage(4, LogLevel.Information, "Price feed backplane: the {ConnectionType} connection to Redis is back.")]
    private static partial void ConnectionBack(ILogger logger, ConnectionType connectionType);

    [LoggerMessage(5, LogLevel.Warning, "Price feed backplane: this instance's ticks are lost while Redis cannot be reached (the first was for product {ProductId}).")]
    private static partial void TicksLost(ILogger logger, int productId);

    [LoggerMessage(6, LogLevel.Warning, "Price feed backplane: a message on the channel is not a PriceTick; skipped.")]
    private static partial void NotATick(ILogger logger, Exception exception);
}
