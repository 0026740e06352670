namespace StreamLoad.Duplex;

/// <summary>
/// One W7 echo call held open by a client: opened once, then one request and its answer at a time (one message in
/// flight), then half-closed with the call's successful end checked. Every answer is checked, so a broken path fails
/// instead of looking fast.
/// </summary>
internal abstract class EchoCall : IAsyncDisposable
{
    /// <summary>Connects and starts the call (the first round trip proves it answers).</summary>
    public abstract Task OpenAsync(CancellationToken cancellationToken);

    /// <summary>Sends one request and reads its answer.</summary>
    public abstract ValueTask RoundTripAsync(CancellationToken cancellationToken);

    /// <summary>Half-closes and reads the call's end, which must be a success.</summary>
    public abstract Task CompleteAsync(CancellationToken cancellationToken);

    public abstract ValueTask DisposeAsync();

    protected static void CheckAnswer(int results, string title, string query)
    {
        if (results != 1 || title != query)
        {
            throw new InvalidDataException($"An answer held {results} results titled '{title}', not the one result titled '{query}'.");
        }
    }
}
