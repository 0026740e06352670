using System.Text;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Generated cases to the Echo method whose answer is known (<see cref="EchoExpectation"/>): random valid Specimens
/// written by the suite's own XML and form writers, and the same with one value made wrong or one unknown name
/// added. The answer is asked for in protobuf or JSON, which <see cref="EchoOracle"/> reads with Google.Protobuf.
/// </summary>
public static class EchoCases
{
    private static readonly string[] Accepts = ["application/x-protobuf", "application/json"];

    public static IEnumerable<FuzzCase> Xml(Random random, int count)
    {
        var generator = new SpecimenGenerator(random, formOnly: false);
        var writer = new SpecimenXmlWriter(random);
        for (var i = 0; i < count; i++)
        {
            var (message, fields) = generator.Next();
            var (sent, expectation, mutation) = Judged(random, message, fields, mapKeys: true);
            yield return FuzzCase.Post(FuzzSeeds.Echo, random.Pick(XmlMutatorContentTypes), Encoding.UTF8.GetBytes(writer.Write(sent)), mutation, random.Pick(Accepts)) with { Expectation = expectation };
        }
    }

    public static IEnumerable<FuzzCase> Form(Random random, int count, bool query)
    {
        var generator = new SpecimenGenerator(random, formOnly: true);
        var writer = new SpecimenFormWriter(random);
        for (var i = 0; i < count; i++)
        {
            var (message, fields) = generator.Next();
            var (sent, expectation, mutation) = Judged(random, message, fields, mapKeys: false);
            var text = writer.Write(sent);
            yield return query
                ? FuzzCase.Get(FuzzSeeds.Echo, text, mutation, random.Pick(Accepts)) with { Expectation = expectation }
                : FuzzCase.Post(FuzzSeeds.Echo, "application/x-www-form-urlencoded", Encoding.ASCII.GetBytes(text), mutation, random.Pick(Accepts)) with { Expectation = expectation };
        }
    }

    private static readonly string[] XmlMutatorContentTypes = ["application/xml", "text/xml", "application/xml; charset=utf-8"];

    /// <summary>Two of three cases sent as generated; the rest with one leaf's text made wrong, or an unknown name added.</summary>
    private static (IReadOnlyList<SpecimenText> Sent, EchoExpectation Expectation, string Mutation) Judged(
        Random random, Specimen message, IReadOnlyList<SpecimenText> fields, bool mapKeys)
    {
        var corruptible = SpecimenCorruption.Corruptible(fields, mapKeys);
        switch (random.Next(6))
        {
            case 0 when corruptible.Count > 0:
            {
                var (leaf, formKey) = random.Pick(corruptible);
                var wrong = SpecimenCorruption.WrongText(random, leaf.Kind);
                return (SpecimenText.Replace(fields, leaf, wrong), EchoExpectation.Refusal(mapKeys ? leaf.Name : formKey, wrong), $"generated, {formKey} = '{wrong}' ({leaf.Kind})");
            }

            case 1:
            {
                var unknown = SpecimenCorruption.UnknownName(random);
                return ([.. fields, new SpecimenText.Leaf(unknown, unknown, "1", LeafKind.Text)], EchoExpectation.Refusal(unknown), $"generated, unknown name {unknown}");
            }

            default:
                return (fields, EchoExpectation.Answer(message), "generated, valid");
        }
    }
}
